import {
  type BulkOperationView,
  type CoursePick,
  formatDate,
  formatDateTime as formatDateAndTime,
  type Paged,
  ResultsMessages,
  type ResultView,
  type UserSummary,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';

/**
 * Results of every kind (issue 5 item 1): the calls of the /results/... and /users/bulk-add-events pages.
 * Field names are the contract's (packages/contracts/src/results.ts).
 */
export { ResultsMessages };

export const resultKeys = {
  all: ['results'] as const,
  one: (id: number | string) => ['results', 'one', String(id)] as const,
  exempt: (filters: unknown) => ['results', 'exempt', filters] as const,
  pending: (type: string, filters: unknown) => ['results', 'pending', type, filters] as const,
  history: (filters: unknown) => ['results', 'bulk-history', filters] as const,
};

export function useResult(id: string | undefined) {
  return useQuery({
    queryKey: resultKeys.one(id ?? ''),
    enabled: Boolean(id),
    queryFn: async () => (await api.get<Envelope<ResultView>>(`/results/${id}`)).data.data,
  });
}

/** Server-side search for the pickers: users in scope (GET /users, deep) and courses (GET /results/courses). */
export async function searchUsers(search: string): Promise<{ id: number; label: string; hint: string }[]> {
  const res = await api.get<Paged<UserSummary>>('/users', {
    params: { search: search || undefined, deep: true, per_page: 10 },
  });
  return res.data.data.map((u) => ({
    id: u.id,
    label: u.name,
    hint: [u.email, u.primary_entity.name].filter(Boolean).join(' · '),
  }));
}

export async function searchCourses(
  search: string,
  self = false,
): Promise<{ id: number; label: string; hint: string }[]> {
  const res = await api.get<Paged<CoursePick>>('/results/courses', {
    params: { search: search || undefined, per_page: 10, self: self ? 1 : undefined },
  });
  return res.data.data.map((c) => ({ id: c.id, label: c.title, hint: c.short_title ?? '' }));
}

export type { BulkOperationView, ResultView };

/** '2024-05-07T00:00:00.000Z' → '07/05/2024' in the organisation's date format (dates.ts); '—' for none. */
export function formatDay(iso: string | null | undefined): string {
  return formatDate(iso, undefined, '—');
}

/** '07/05/2024 14:05' in the organisation's date format; '—' for none. */
export function formatDateTime(iso: string | null | undefined): string {
  return formatDateAndTime(iso, undefined, '—');
}

/** An ISO timestamp as the value of a date input (YYYY-MM-DD, UTC). */
export const toDateInput = (iso: string | null | undefined): string => (iso ? iso.slice(0, 10) : '');

/** Today as a date input value (local day). */
export function todayInput(now: Date = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

export const RESULT_TYPE_LABELS: Record<string, string> = {
  elearning: 'E-learning',
  scorm: 'SCORM',
  historical: 'Historical',
  face2face: 'Face-to-face',
  exempt: 'Exemption',
  assessment: 'Assessment',
  pathway: 'Pathway',
  document: 'Document read',
};

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`;

/**
 * A row action of the results lists (delete, approve, undo a bulk add): shows the server's message (else `success`)
 * and runs `after`; a failure shows the server's message under `failure`, and is rethrown when the action runs from
 * a confirm dialog (`rethrow`), which then stays open.
 */
export async function resultRowAction(
  request: () => Promise<{ data?: { message?: string } | null }>,
  o: { success: string; failure: string; after: () => Promise<unknown>; rethrow?: boolean },
): Promise<void> {
  try {
    const res = await request();
    notifySuccess(res.data?.message ?? o.success);
    await o.after();
  } catch (error) {
    notifyError(errorEnvelope(error, o.failure), o.failure);
    if (o.rethrow) throw error;
  }
}

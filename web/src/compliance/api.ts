import type { Compliance, ComplianceType, EntityScore, Paged, ScoreType } from '@cc/contracts';
import { ComplianceMessages, SCORE_POLL_MS } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope, isApiError } from '../app/api';

/** Client side of contracts/compliance.ts: the role's rows, one row, the 409 existing-results marker, scores. */

export function useRoleCompliance(slug: string, roleId: number, page: number) {
  return useQuery({
    queryKey: ['compliance', slug, roleId, page],
    enabled: Boolean(slug && roleId),
    queryFn: async () =>
      (
        await api.get<Paged<Compliance>>(`/compliance/${encodeURIComponent(slug)}/role/${roleId}`, {
          params: { page },
        })
      ).data,
    placeholderData: (previous) => previous,
  });
}

export function useRoleCourseCompliance(slug: string, roleId: number, courseId: number) {
  return useQuery({
    queryKey: ['compliance', slug, roleId, 'course', courseId],
    enabled: Boolean(slug && roleId && courseId),
    queryFn: async () =>
      (
        await api.get<Envelope<Compliance>>(`/compliance/role/${roleId}/course/${courseId}`, {
          params: { entity: slug },
        })
      ).data.data,
  });
}

/** The existing-results marker: a 409 carrying data.existing_results (spec 2 §4). */
export function existingResultsOf(error: unknown): number | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const data = (error.data as { data?: { existing_results?: number } } | null)?.data;
  return typeof data?.existing_results === 'number' ? data.existing_results : null;
}

export interface ComplianceInput {
  type: ComplianceType;
  validity: number | null;
  update_previous_results?: boolean;
  /** Issue 33 §4: days to complete a new requirement (POST only; default: the organisation's setting). */
  grace_days?: number;
}

export async function createCompliance(
  slug: string,
  roleId: number,
  courseId: number,
  input: ComplianceInput,
): Promise<Envelope<Compliance>> {
  return (await api.post<Envelope<Compliance>>('/compliance', { entity: slug, roleId, courseId, ...input }))
    .data;
}

export async function updateCompliance(
  slug: string,
  id: number,
  input: Partial<ComplianceInput>,
): Promise<Envelope<Compliance>> {
  return (await api.patch<Envelope<Compliance>>(`/compliance/${id}`, { entity: slug, ...input })).data;
}

export async function deleteCompliance(id: number): Promise<string> {
  return (
    (await api.delete<{ message?: string }>(`/compliance/${id}`)).data?.message ?? ComplianceMessages.deleted
  );
}

/** Validity as people read it. */
export const validityLabel = (months: number | null) =>
  months === null
    ? 'Never expires'
    : months % 12 === 0
      ? `${months / 12} year${months === 12 ? '' : 's'}`
      : `${months} months`;

export type ScoreState = { status: 'computing' } | { status: 'ready'; score: EntityScore };

/**
 * GET /entities/{id}/score/{x} (spec 1 §4 "Score request"): 202 means poll again, every SCORE_POLL_MS (5 s).
 */
export function useEntityScore(
  entity: string | number | undefined,
  type: ScoreType,
  o: { deep?: boolean; newStarters?: 'include' | 'exclude'; enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: ['score', entity, type, o.deep ?? false, o.newStarters ?? 'include'],
    enabled: entity !== undefined && o.enabled !== false,
    queryFn: async (): Promise<ScoreState> => {
      const res = await api.get<Envelope<EntityScore> | { message: string }>(
        `/entities/${encodeURIComponent(String(entity))}/score/${type}`,
        { params: { deep: o.deep ? 1 : undefined, new_starters: o.newStarters } },
      );
      if (res.status === 202) return { status: 'computing' };
      return { status: 'ready', score: (res.data as Envelope<EntityScore>).data };
    },
    refetchInterval: (query) => (query.state.data?.status === 'computing' ? SCORE_POLL_MS : false),
  });
}

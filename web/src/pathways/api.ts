import {
  type AllocationSummary,
  type AllocationView,
  type CreatePathwayBody,
  type DocumentSummary,
  type LibraryView,
  type Paged,
  type PathwayAllocationStatus,
  type PathwayChangesView,
  PathwayMessages,
  type PathwayStepInput,
  type PathwayStepView,
  type PathwaySummary,
  type PathwayView,
  type RolePathwayView,
  type UpdatePathwayBody,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, type Envelope } from '../app/api';
import { type ChangeOptions, runChange } from '../app/change';
import { pathwaysPage } from '../app/graphql/operations';
import { errorEnvelope, type FieldErrors, isNotFound, serverFieldErrors } from '../entities/shared';
import type { PickItem } from '../results/Picker';

/**
 * The calls of the pathways pages (contracts pathways.ts) through THE api client; every query key starts with
 * ['pathways'] so one invalidation after a change refreshes the lists, the pathway, its allocations and "mine".
 */
export { PathwayMessages };

export const pathwayKeys = {
  all: ['pathways'] as const,
  list: (f: PathwayFilters) => ['pathways', 'list', f] as const,
  view: (id: number) => ['pathways', 'view', id] as const,
  version: (id: number, n: number) => ['pathways', 'version', id, n] as const,
  allocations: (id: number, f: AllocationFilters) => ['pathways', 'allocations', id, f] as const,
  allocation: (uuid: string) => ['pathways', 'allocation', uuid] as const,
  mine: (includeCompleted: boolean) => ['pathways', 'mine', includeCompleted] as const,
  role: (slug: string, role: number) => ['pathways', 'role', slug, role] as const,
};

export interface PathwayFilters {
  page?: number;
  per_page?: number;
  search?: string;
}
export interface AllocationFilters {
  page?: number;
  status?: PathwayAllocationStatus;
}

/** Query-string values without the empty ones. */
function params(f: object) {
  const out: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(f)) if (v !== undefined && v !== null && v !== '') out[k] = v;
  return out;
}

/** A list answer may come as the envelope or the bare array. */
export const listOf = <T>(data: Envelope<T[]> | T[] | Paged<T>): T[] =>
  Array.isArray(data) ? data : (data.data ?? []);

export function usePathways(f: PathwayFilters, enabled = true) {
  return useQuery({
    queryKey: pathwayKeys.list(f),
    enabled,
    placeholderData: keepPreviousData,
    // GraphQL (spec 2 §7 "pathways"): web/src/app/graphql/README.md.
    queryFn: () => pathwaysPage(f),
  });
}

export function usePathway(id: number, enabled = true) {
  return useQuery({
    queryKey: pathwayKeys.view(id),
    enabled: enabled && id > 0,
    queryFn: async () =>
      (await api.get<Envelope<PathwayView>>(`/pathways/${id}`, { skipAuthHandling: true })).data.data,
  });
}

/** An older version's steps (GET /pathways/{id}/versions/{number}). */
export function usePathwayVersion(id: number, number: number | null) {
  return useQuery({
    queryKey: pathwayKeys.version(id, number ?? 0),
    enabled: number !== null,
    queryFn: async () => {
      const res = await api.get<Envelope<{ steps: PathwayStepView[] } | PathwayStepView[]>>(
        `/pathways/${id}/versions/${number}`,
      );
      const body = res.data.data;
      return Array.isArray(body) ? body : body.steps;
    },
  });
}

export function useAllocations(id: number, f: AllocationFilters, enabled = true) {
  return useQuery({
    queryKey: pathwayKeys.allocations(id, f),
    enabled: enabled && id > 0,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api.get<Paged<AllocationSummary>>(`/pathways/${id}/allocations`, { params: params(f) })).data,
  });
}

export function useAllocation(uuid: string | null) {
  return useQuery({
    queryKey: pathwayKeys.allocation(uuid ?? ''),
    enabled: Boolean(uuid),
    queryFn: async () =>
      (await api.get<Envelope<AllocationView>>(`/pathway-allocations/${uuid}`, { skipAuthHandling: true }))
        .data.data,
  });
}

/** The caller's own allocations (everyone may ask). */
export function useMyPathways(includeCompleted = false) {
  return useQuery({
    queryKey: pathwayKeys.mine(includeCompleted),
    queryFn: async () =>
      listOf(
        (
          await api.get<Envelope<AllocationSummary[]>>('/pathways/mine', {
            params: includeCompleted ? { include_completed: 1 } : {},
            skipAuthHandling: true,
          })
        ).data,
      ),
  });
}

/** The pathways allocated to a job role of an organisation (own and from the organisations above). */
export function useRolePathways(slug: string, role: number, enabled = true) {
  return useQuery({
    queryKey: pathwayKeys.role(slug, role),
    enabled: enabled && Boolean(slug) && role > 0,
    queryFn: async () =>
      listOf(
        (
          await api.get<Envelope<RolePathwayView[]>>(
            `/entities/${encodeURIComponent(slug)}/roles/${role}/pathways`,
          )
        ).data,
      ),
  });
}

/** spec 1 §2: a pathway that is missing or out of scope (404) goes to /404?resource=pathway. */
export function usePathwayNotFound(error: unknown): void {
  const navigate = useNavigate();
  const notFound = isNotFound(error);
  useEffect(() => {
    if (notFound) navigate('/404?resource=pathway', { replace: true });
  }, [notFound, navigate]);
}

// --- Pickers ---------------------------------------------------------------------------------------------------

/** Pathways in scope, to add one to a job role. */
export async function searchPathways(search: string): Promise<PickItem[]> {
  const res = await api.get<Paged<PathwaySummary>>('/pathways', {
    params: params({ search, per_page: 20 }),
    skipAuthHandling: true,
  });
  return res.data.data.map((p) => ({ id: p.id, label: p.title, hint: p.entity.name }));
}

/** The libraries the caller may see (GET /libraries, 134), for the document step's first choice. */
export async function fetchLibraries(): Promise<LibraryView[]> {
  const res = await api.get<Paged<LibraryView>>('/libraries', {
    params: { per_page: 100 },
    skipAuthHandling: true,
  });
  return listOf(res.data);
}

/** A library's documents matching the text (GET /libraries/{id}/documents). */
export async function searchDocuments(libraryId: number, search: string): Promise<PickItem[]> {
  const res = await api.get<Paged<DocumentSummary>>(`/libraries/${libraryId}/documents`, {
    params: params({ search, per_page: 20 }),
    skipAuthHandling: true,
  });
  return listOf(res.data).map((d) => ({ id: d.id, label: d.title, hint: `Version ${d.version}` }));
}

// --- Changes ---------------------------------------------------------------------------------------------------

/**
 * Runs a change: shows the server's message (else `success`), refreshes every pathways query; a failure shows the
 * server's message (unless the caller shows it by the fields) and is rethrown, so a dialog stays open.
 */
export const pathwayAction = <T = unknown>(
  queryClient: QueryClient,
  request: () => Promise<{ data?: { message?: string; data?: T } | null }>,
  success: string,
  options?: ChangeOptions,
) => runChange<T>(queryClient, [pathwayKeys.all], request, success, options);

/** The state a pathway dialog shows while it submits. */
export interface DialogState {
  setBusy: (busy: boolean) => void;
  setErrors: (errors: FieldErrors) => void;
  setRefusal: (message: string | null) => void;
  close: () => void;
}

/**
 * A dialog's submit of one pathway action: busy while it runs, closed when it succeeds. A refusal puts its field
 * errors beside their fields and its message (or `failure`) above the form; with `messageWithFields: false` the
 * message is shown only when no field names the problem.
 */
export async function submitDialogAction(
  queryClient: QueryClient,
  request: () => Promise<{ data?: { message?: string } | null }>,
  success: string,
  failure: string,
  dialog: DialogState,
  { messageWithFields = true }: { messageWithFields?: boolean } = {},
) {
  dialog.setBusy(true);
  try {
    await pathwayAction(queryClient, request, success, { quietErrors: true });
    dialog.close();
  } catch (error) {
    const fields = serverFieldErrors(error);
    dialog.setErrors(fields);
    if (messageWithFields || !Object.keys(fields).length)
      dialog.setRefusal(errorEnvelope(error, failure).message ?? null);
  } finally {
    dialog.setBusy(false);
  }
}

export const createPathway = (body: CreatePathwayBody) => api.post<Envelope<PathwayView>>('/pathways', body);
export const updatePathway = (id: number, body: UpdatePathwayBody) =>
  api.patch<Envelope<PathwayView>>(`/pathways/${id}`, body);
export const deletePathway = (id: number) => api.delete<{ message?: string }>(`/pathways/${id}`);
export const previewChanges = async (id: number, steps: PathwayStepInput[]) =>
  (await api.post<Envelope<PathwayChangesView>>(`/pathways/${id}/changes`, { steps })).data.data;

export const allocatePeople = (id: number, userIds: number[]) =>
  api.post<Envelope<unknown>>(`/pathways/${id}/allocations`, { user_ids: userIds });
export const withdrawAllocation = (uuid: string) =>
  api.delete<{ message?: string }>(`/pathway-allocations/${uuid}`);
export const signOffStep = (uuid: string, key: string, body: { note: string; signed_on: string }) =>
  api.post<Envelope<AllocationView>>(`/pathway-allocations/${uuid}/steps/${key}/sign-off`, body);
export const signOffAllocation = (uuid: string, body: { note: string }) =>
  api.post<Envelope<AllocationView>>(`/pathway-allocations/${uuid}/sign-off`, body);

const rolePath = (slug: string, role: number) =>
  `/entities/${encodeURIComponent(slug)}/roles/${role}/pathways`;
export const addRolePathway = (slug: string, role: number, pathwayId: number) =>
  api.post<Envelope<unknown>>(rolePath(slug, role), { pathway_id: pathwayId });
export const removeRolePathway = (slug: string, role: number, pathwayId: number) =>
  api.delete<{ message?: string }>(`${rolePath(slug, role)}/${pathwayId}`);

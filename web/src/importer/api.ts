import type { ImportErrorView, ImportKind, ImportPreview, ImportView, Paged } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { taskStarted } from '../tasks/api';

/** The calls of /importer/... (contracts importer.ts) through THE api client; query keys under ['importer']. */
export const importerKeys = {
  all: ['importer'] as const,
  list: (f: { page: number; unresolved: boolean }) => ['importer', 'list', f] as const,
  run: (uuid: string) => ['importer', 'run', uuid] as const,
  errors: (uuid: string, f: { page: number; unresolved: boolean }) =>
    ['importer', 'errors', uuid, f] as const,
};

const BUSY = new Set(['planning', 'applying', 'undoing']);
export const isBusy = (status: string | undefined) => status !== undefined && BUSY.has(status);

export function useImports(f: { page: number; unresolved: boolean }) {
  return useQuery({
    queryKey: importerKeys.list(f),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<ImportView>>('/importer/imports', {
          params: { page: f.page, unresolved: f.unresolved ? 1 : undefined },
        })
      ).data,
    refetchInterval: (q) => (q.state.data?.data.some((i) => isBusy(i.status)) ? 2000 : false),
  });
}

export function useImportRun(uuid: string | null) {
  return useQuery({
    queryKey: importerKeys.run(uuid ?? ''),
    enabled: Boolean(uuid),
    queryFn: async () => (await api.get<Envelope<ImportPreview>>(`/importer/imports/${uuid}`)).data.data,
    // Live while a job works on it: the progress and, at the end, the outcome.
    refetchInterval: (q) => (isBusy(q.state.data?.import.status) ? 1500 : false),
  });
}

export function useImportErrors(uuid: string | null, f: { page: number; unresolved: boolean }) {
  return useQuery({
    queryKey: importerKeys.errors(uuid ?? '', f),
    enabled: Boolean(uuid),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<ImportErrorView>>(`/importer/imports/${uuid}/errors`, {
          params: { page: f.page, unresolved: f.unresolved ? 1 : undefined },
        })
      ).data,
  });
}

// Each of these may start a task (a big file's plan, the apply, the undo): the header counts it at once, not on its
// next 15 s poll (issue 28: a short import used to apply without ever being counted).
export async function uploadImport(kind: ImportKind, file: File) {
  const res = await api.upload<Envelope<ImportView>>('/importer/imports', { kind, file });
  if (res.data.data.status === 'planning') taskStarted();
  return res.data;
}
export async function applyImport(uuid: string) {
  const res = await api.post<Envelope<ImportView>>(`/importer/imports/${uuid}/apply`);
  taskStarted();
  return res.data;
}
export async function undoImport(uuid: string) {
  const res = await api.post<Envelope<ImportView>>(`/importer/imports/${uuid}/undo`);
  taskStarted();
  return res.data;
}
export async function resolveError(uuid: string, id: number, note: string) {
  return (
    await api.post<Envelope<ImportErrorView>>(`/importer/imports/${uuid}/errors/${id}/resolve`, { note })
  ).data;
}

export const templateUrl = (kind: ImportKind) => `/api/importer/templates/${kind}`;
export const errorsCsvUrl = (uuid: string) => `/api/importer/imports/${uuid}/errors.csv`;

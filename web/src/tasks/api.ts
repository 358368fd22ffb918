import type { BulkAttemptsAnswer, BulkAttemptsBody, Paged, TaskView } from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { queryClient } from '../app/query-client';

/**
 * The calls of /tasks-in-progress (contracts tasks.ts). Every key starts with ['tasks'], so `taskStarted()` after the
 * app starts a long job refreshes the list and the header's count at once.
 */
export const taskKeys = {
  all: ['tasks'] as const,
  list: (page: number) => ['tasks', 'list', page] as const,
  count: ['tasks', 'active-count'] as const,
};

export const isActive = (t: Pick<TaskView, 'status'>) => t.status === 'queued' || t.status === 'running';

/** How often the list refreshes while something runs (the header's count is slower). */
export const LIVE_POLL_MS = 2500;
export const COUNT_POLL_MS = 15_000;

export function useTasks(page: number) {
  return useQuery({
    queryKey: taskKeys.list(page),
    placeholderData: keepPreviousData,
    queryFn: async () => (await api.get<Paged<TaskView>>('/tasks', { params: { page, per_page: 20 } })).data,
    // Poll only while a task on the page is still going; a quiet page costs nothing.
    refetchInterval: (q) => (q.state.data?.data.some(isActive) ? LIVE_POLL_MS : false),
  });
}

export function useActiveTaskCount(enabled: boolean) {
  return useQuery({
    queryKey: taskKeys.count,
    enabled,
    queryFn: async () =>
      (await api.get<Envelope<{ active: number }>>('/tasks/active-count')).data.data?.active ?? 0,
    refetchInterval: (q) => ((q.state.data ?? 0) > 0 ? LIVE_POLL_MS * 2 : COUNT_POLL_MS),
  });
}

/** Call after the app started a long job (an e-mailed report, bulk attempts): the header counts it at once. */
export function taskStarted(client: QueryClient = queryClient) {
  void client.invalidateQueries({ queryKey: taskKeys.all });
}

export async function dismissTask(uuid: string) {
  return (await api.delete<Envelope<TaskView | undefined>>(`/tasks/${uuid}`)).data;
}

export async function startBulkAttempts(body: BulkAttemptsBody) {
  const res = await api.post<Envelope<BulkAttemptsAnswer>>('/attempts/bulk', body);
  taskStarted();
  return res.data;
}

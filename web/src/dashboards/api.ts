import type { LearnerEvents, Paged, ResultView } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/** The learner's to-do with its counts (GET /users/{id}/events). */
export function useLearnerEvents(userRef: string | undefined) {
  return useQuery({
    queryKey: ['learning', 'events', userRef],
    enabled: Boolean(userRef),
    queryFn: async () =>
      (await api.get<Envelope<LearnerEvents>>(`/users/${encodeURIComponent(userRef ?? '')}/events`)).data
        .data,
  });
}

/** A page of the user's results, newest first (GET /users/{id}/results): their training history. */
export function useTrainingHistory(userRef: string | undefined, page: number, perPage = 10) {
  return useQuery({
    queryKey: ['results', 'history', userRef, page, perPage],
    enabled: Boolean(userRef),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<ResultView>>(`/users/${encodeURIComponent(userRef ?? '')}/results`, {
          params: { page, per_page: perPage },
        })
      ).data,
  });
}

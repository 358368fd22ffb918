import {
  BookingsMessages,
  type CancellationReason,
  type DelegateSettings,
  type DelegatesQuery,
  type DelegateView,
  type Paged,
  type TrainerOption,
  type TrainingOrderView,
  type TrainingProviderSettings,
  type TrainingSessionsQuery,
  type TrainingSessionView,
  type UserSummary,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { api, type Envelope, isApiError } from '../app/api';
import { trainingSessionsPage } from '../app/graphql/operations';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';

/**
 * The calls of /manage-bookings and the two settings pages (contracts bookings.ts) through THE api client; query
 * keys under ['bookings'] so one invalidation refreshes every list after a change.
 */
export { BookingsMessages };

export type SessionFilters = Partial<
  Pick<
    TrainingSessionsQuery,
    | 'page'
    | 'per_page'
    | 'search'
    | 'from'
    | 'to'
    | 'content_id'
    | 'trainer_id'
    | 'status'
    | 'mine'
    | 'has_places'
  >
>;

export const bookingKeys = {
  all: ['bookings'] as const,
  sessions: (f: SessionFilters) => ['bookings', 'sessions', f] as const,
  session: (id: number | string) => ['bookings', 'session', String(id)] as const,
  delegates: (id: number | string, f: unknown) => ['bookings', 'delegates', String(id), f] as const,
  reasons: ['bookings', 'cancellation-reasons'] as const,
  marketplace: (f: unknown) => ['bookings', 'marketplace', f] as const,
  orders: (f: unknown) => ['bookings', 'orders', f] as const,
  providerSettings: (slug: string) => ['bookings', 'provider-settings', slug] as const,
  delegateSettings: (slug: string) => ['bookings', 'delegate-settings', slug] as const,
};

/** Query-string values: booleans as 1, empty strings dropped. */
function params(f: Record<string, unknown>) {
  const out: Record<string, string | number | boolean> = {};
  for (const [k, v] of Object.entries(f)) {
    if (v === undefined || v === null || v === '' || v === false) continue;
    out[k] = v as string | number | boolean;
  }
  return out;
}

export function useSessions(f: SessionFilters, enabled = true) {
  return useQuery({
    queryKey: bookingKeys.sessions(f),
    enabled,
    placeholderData: keepPreviousData,
    // GraphQL (spec 2 §7 "training sessions"): web/src/app/graphql/README.md.
    queryFn: () => trainingSessionsPage(f),
  });
}

export function useSession(id: string | undefined) {
  return useQuery({
    queryKey: bookingKeys.session(id ?? ''),
    enabled: Boolean(id),
    queryFn: async () => (await api.get<Envelope<TrainingSessionView>>(`/training-sessions/${id}`)).data.data,
  });
}

export function useDelegates(
  id: number,
  f: Partial<Pick<DelegatesQuery, 'page' | 'per_page' | 'status'>>,
  enabled = true,
) {
  return useQuery({
    queryKey: bookingKeys.delegates(id, f),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api.get<Paged<DelegateView>>(`/training-sessions/${id}/delegates`, { params: params(f) })).data,
  });
}

export function useCancellationReasons(enabled = true) {
  return useQuery({
    queryKey: bookingKeys.reasons,
    enabled,
    staleTime: 5 * 60_000,
    queryFn: async () => {
      const res = await api.get<Envelope<CancellationReason[]> | CancellationReason[]>(
        '/cancellation-reasons',
      );
      return Array.isArray(res.data) ? res.data : res.data.data;
    },
  });
}

export type MarketplaceFilters = Partial<
  Pick<TrainingSessionsQuery, 'page' | 'search' | 'from' | 'to' | 'has_places'>
>;

export function useMarketplace(f: MarketplaceFilters, enabled = true) {
  return useQuery({
    queryKey: bookingKeys.marketplace(f),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api.get<Paged<TrainingSessionView>>('/marketplace', { params: params(f) })).data,
  });
}

export function useOrders(f: { page?: number; session_id?: number }, enabled = true) {
  return useQuery({
    queryKey: bookingKeys.orders(f),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (await api.get<Paged<TrainingOrderView>>('/training-orders', { params: params(f) })).data,
  });
}

export function useProviderSettings(slug: string) {
  return useQuery({
    queryKey: bookingKeys.providerSettings(slug),
    enabled: Boolean(slug),
    queryFn: async () =>
      (await api.get<Envelope<TrainingProviderSettings>>(`/entities/${slug}/training-provider-settings`)).data
        .data,
  });
}

export function useDelegateSettings(slug: string) {
  return useQuery({
    queryKey: bookingKeys.delegateSettings(slug),
    enabled: Boolean(slug),
    queryFn: async () =>
      (await api.get<Envelope<DelegateSettings>>(`/entities/${slug}/delegate-settings`)).data.data,
  });
}

// --- Pickers ---------------------------------------------------------------------------------------------------

export interface PickItem {
  id: number;
  label: string;
  hint?: string;
}

/**
 * Face-to-face content for the session form and the filter (GET /content?type=face2face). A refusal shows as
 * "Search failed" in the picker instead of sending the user to /403 (the list needs the content creator's 63).
 */
export async function searchFace2face(search: string): Promise<PickItem[]> {
  const res = await api.get<Paged<{ id: number; title: string; course?: { title: string } | null }>>(
    '/content',
    { params: params({ type: 'face2face', search, per_page: 20 }), skipAuthHandling: true },
  );
  return res.data.data.map((c) => ({ id: c.id, label: c.title, hint: c.course?.title ?? '' }));
}

/**
 * Trainers a session may name (GET /training-sessions/trainers, issue 33 §3): the organisation's own and those of
 * the training companies it books with (their company shown as the hint).
 */
export async function searchTrainers(search: string): Promise<PickItem[]> {
  const res = await api.get<Paged<TrainerOption>>('/training-sessions/trainers', {
    params: params({ search, per_page: 20 }),
    skipAuthHandling: true,
  });
  return res.data.data.map((t) => ({
    id: t.id,
    label: t.name,
    hint: t.provider ? `${t.entity.name} (training provider)` : t.entity.name,
  }));
}

/** People in the caller's scope, to add as delegates or name on an order. */
export async function searchPeople(search: string): Promise<PickItem[]> {
  const res = await api.get<Paged<UserSummary>>('/users', {
    params: params({ deep: true, search, per_page: 20 }),
    skipAuthHandling: true,
  });
  return res.data.data.map((u) => ({
    id: u.id,
    label: u.name,
    hint: [u.email, u.primary_entity?.name].filter(Boolean).join(' · '),
  }));
}

// --- Actions ---------------------------------------------------------------------------------------------------

/**
 * Runs a change: shows the server's message (else `success`), refreshes every bookings query; a failure shows the
 * server's message and is rethrown (a confirm dialog then stays open).
 */
export async function bookingAction(
  queryClient: QueryClient,
  request: () => Promise<{ data?: { message?: string } | null }>,
  success: string,
): Promise<void> {
  try {
    const res = await request();
    notifySuccess(res.data?.message ?? success);
    await queryClient.invalidateQueries({ queryKey: bookingKeys.all });
  } catch (error) {
    notifyError(errorEnvelope(error, 'That did not work. Please try again.'), 'That did not work.');
    throw error;
  }
}

/** spec 1 §2: a session that is missing or out of scope (404) goes to /404?resource=session. */
export function useSessionNotFound(error: unknown): void {
  const navigate = useNavigate();
  const notFound = isApiError(error) && error.status === 404;
  useEffect(() => {
    if (notFound) navigate('/404?resource=session', { replace: true });
  }, [notFound, navigate]);
}

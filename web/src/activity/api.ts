import {
  type AccountEvent,
  type ActiveUser,
  type AuthMetrics,
  formatDate,
  type MetricPeriod,
  type Paged,
  type SystemSearchResult,
} from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { describeSession } from '../account/api';
import { api, type Envelope } from '../app/api';

/** Query keys of the activity screens (activity/…). */
export const activityKeys = {
  active: (f: object) => ['activity', 'active', f] as const,
  metrics: (entity: string | null, r: MetricRange, deep: boolean) =>
    ['activity', 'metrics', entity, r, deep] as const,
  account: (userId: number, page: number) => ['activity', 'account', userId, page] as const,
  search: (q: string, limit: number) => ['system', 'search', q, limit] as const,
};

export interface ActiveFilters {
  page: number;
  search: string;
  deep: boolean;
}

/** GET /auth-events/active (spec 1 §7): page, search, deep; actingAs goes with every GET. */
export function useActiveUsers(f: ActiveFilters) {
  return useQuery({
    queryKey: activityKeys.active(f),
    queryFn: async () =>
      (
        await api.get<Paged<ActiveUser>>('/auth-events/active', {
          params: { page: f.page, search: f.search || undefined, deep: f.deep },
        })
      ).data,
    placeholderData: keepPreviousData,
    refetchInterval: 60_000,
  });
}

export interface MetricRange {
  key: 'today' | '7d' | '30d' | '12m';
  fromDate: string;
  toDate: string;
  period: MetricPeriod;
}

const DAY = 86_400_000;
const shift = (isoDay: string, days: number) =>
  new Date(Date.parse(`${isoDay}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);

/** The ranges the chart offers, from today in the UK: today by hour (spec 1 §7 period `h`), 7 and 30 days, 12 months. */
export function metricRanges(now = new Date()): MetricRange[] {
  const today = formatDate(now, 'YYYY-MM-DD');
  const [y, m] = today.split('-').map(Number) as [number, number];
  const start = new Date(Date.UTC(y, m - 1 - 11, 1)).toISOString().slice(0, 10);
  return [
    { key: 'today', fromDate: today, toDate: today, period: 'h' },
    { key: '7d', fromDate: shift(today, -6), toDate: today, period: 'd' },
    { key: '30d', fromDate: shift(today, -29), toDate: today, period: 'd' },
    { key: '12m', fromDate: start, toDate: today, period: 'm' },
  ];
}

/** POST /auth-events/{entity}/metrics (spec 1 §7): the answer's data.data are the buckets. */
export function useAuthMetrics(entity: string | null, range: MetricRange, deep: boolean) {
  return useQuery({
    queryKey: activityKeys.metrics(entity, range, deep),
    enabled: Boolean(entity),
    queryFn: async () =>
      (
        await api.post<Envelope<AuthMetrics>>(`/auth-events/${encodeURIComponent(entity ?? '')}/metrics`, {
          entity,
          fromDate: range.fromDate,
          toDate: range.toDate,
          period: range.period,
          deep,
        })
      ).data.data,
    placeholderData: keepPreviousData,
  });
}

/** GET /users/{id}/auth-events: a user's account activity, newest first. */
export function useAccountActivity(userId: number, page: number) {
  return useQuery({
    queryKey: activityKeys.account(userId, page),
    queryFn: async () =>
      (
        await api.get<Paged<AccountEvent>>(`/users/${userId}/auth-events`, {
          params: { page, per_page: 10 },
          skipAuthHandling: true,
        })
      ).data,
    placeholderData: keepPreviousData,
  });
}

/** GET /system/search?q= (2 characters at least). */
export function useSystemSearch(q: string, limit: number) {
  return useQuery({
    queryKey: activityKeys.search(q, limit),
    enabled: q.trim().length >= 2,
    queryFn: async () =>
      (await api.get<Envelope<SystemSearchResult>>('/system/search', { params: { q, limit } })).data.data,
    placeholderData: keepPreviousData,
  });
}

/** "Chrome on Windows" for a web sign-in; "Mobile app" for the app (its sign-ins carry no browser). */
export function deviceLabel(userAgent: string | null, via: string | null): string {
  if (via === 'mobile') return 'Mobile app';
  if (!userAgent) return '—';
  return describeSession({ kind: 'session', name: userAgent });
}

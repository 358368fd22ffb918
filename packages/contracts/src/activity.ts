import { z } from 'zod';
import { PageQuery, queryBool } from './common';

/** Permission ids of the activity screens and the system search (spec 2 §6). */
export const ActivityPerm = {
  /** search training records (people's results, in /system/search) */
  searchRecords: 24,
  activeUsers: 67,
  sendActiveUsersMessage: 81,
  accountActivity: 91,
} as const;

/**
 * "Active" on /active-users: signed in within the last ACTIVE_USER_DAYS days, or holding a session or app token used
 * in the last ONLINE_MINUTES minutes ("online now").
 */
export const ACTIVE_USER_DAYS = 30;
export const ONLINE_MINUTES = 15;

const MAX_IDS = 100;
const idList = z.preprocess(
  (v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : v),
  z
    .array(z.string().regex(/^\d{1,9}(,\d{1,9})*$/, 'entityIds must be entity ids.'))
    .max(MAX_IDS)
    .transform((parts) => parts.flatMap((p) => p.split(',').map(Number))),
);

/** GET /auth-events/active (spec 1 §7): page, search, entityIds, actingAs, deep. */
export const ActiveUsersQuery = PageQuery.extend({
  entityIds: idList.optional(),
  'entityIds[]': idList.optional(),
});
export type ActiveUsersQuery = z.infer<typeof ActiveUsersQuery>;

export const ActiveUser = z.object({
  id: z.number(),
  uuid: z.string(),
  name: z.string(),
  /** null unless the caller may see contact details (permission 23). */
  email: z.string().nullable(),
  primary_entity: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  role: z.object({ id: z.number(), name: z.string() }).nullable(),
  last_login_at: z.string().nullable(),
  /** The user agent (web) or device name (app) of their latest sign-in. */
  device: z.string().nullable(),
  /** 'web' or 'mobile': how they last signed in. */
  via: z.string().nullable(),
  /** Unexpired web sessions and app tokens. */
  active_sessions: z.number(),
  /** The latest request of any of their sessions or tokens. */
  last_seen_at: z.string().nullable(),
  online: z.boolean(),
});
export type ActiveUser = z.infer<typeof ActiveUser>;

export const METRIC_PERIODS = ['h', 'd', 'w', 'm'] as const;
export type MetricPeriod = (typeof METRIC_PERIODS)[number];
/** The longest range (in UK calendar days, inclusive) each period accepts: 744 hours, two years of days, ... */
export const METRIC_MAX_DAYS: Record<MetricPeriod, number> = { h: 31, d: 731, w: 1100, m: 3660 };

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'The date must be in the format YYYY-MM-DD.');

/**
 * POST /auth-events/{entity}/metrics (spec 1 §7): entity, fromDate, toDate, period, deep. Dates are UK calendar days
 * (both included); period h hour, d day, w week (from Monday), m month. Today by hour: fromDate = toDate = today, h.
 */
export const AuthMetricsBody = z.object({
  entity: z.union([z.string().max(120), z.number()]).optional(),
  fromDate: day,
  toDate: day,
  period: z.enum(METRIC_PERIODS),
  deep: queryBool.optional(),
});
export type AuthMetricsBody = z.infer<typeof AuthMetricsBody>;

export const AuthMetricBucket = z.object({
  /** The bucket's start, UK local time, 'YYYY-MM-DDTHH:00'. */
  start: z.string(),
  sign_ins: z.number(),
  /** Distinct people who signed in. */
  users: z.number(),
  failed: z.number(),
});
export type AuthMetricBucket = z.infer<typeof AuthMetricBucket>;

/** The answer's data: `data` (the buckets, spec 1 §7 "data.data becomes the metrics") and the range's totals. */
export const AuthMetrics = z.object({
  data: z.array(AuthMetricBucket),
  period: z.enum(METRIC_PERIODS),
  fromDate: z.string(),
  toDate: z.string(),
  totals: z.object({ sign_ins: z.number(), users: z.number(), failed: z.number() }),
});
export type AuthMetrics = z.infer<typeof AuthMetrics>;

export const AUTH_EVENT_KINDS = [
  'login',
  'logout',
  'failed_login',
  'password_reset',
  'password_changed',
] as const;
export const AUTH_EVENT_LABELS: Record<(typeof AUTH_EVENT_KINDS)[number], string> = {
  login: 'Signed in',
  logout: 'Signed out',
  failed_login: 'Failed sign-in',
  password_reset: 'Password reset',
  password_changed: 'Password changed',
};

/** GET /users/{id}/auth-events: a user's account activity (permission 91), newest first. */
export const AccountActivityQuery = PageQuery.pick({ page: true, per_page: true });
export const AccountEvent = z.object({
  id: z.number(),
  event: z.enum(AUTH_EVENT_KINDS),
  created_at: z.string(),
  ip: z.string().nullable(),
  user_agent: z.string().nullable(),
  via: z.string(),
});
export type AccountEvent = z.infer<typeof AccountEvent>;

/** GET /system/search?q= (spec 1 §2 /system/search): people, organisations, courses and training records. */
export const SystemSearchQuery = z.object({
  q: z.string().trim().min(2, 'Type at least 2 characters.').max(100),
  /** Rows per kind. */
  limit: z.coerce.number().int().min(1).max(50).default(5),
  actingAs: z.string().max(120).optional(),
});
export const SEARCH_KINDS = ['users', 'entities', 'courses', 'records'] as const;
export type SearchKind = (typeof SEARCH_KINDS)[number];
export const SearchHit = z.object({
  id: z.number(),
  /** users: uuid; entities: slug; courses: id; records: the person's uuid. */
  ref: z.string(),
  title: z.string(),
  detail: z.string().nullable(),
});
export type SearchHit = z.infer<typeof SearchHit>;
export const SearchGroup = z.object({
  kind: z.enum(SEARCH_KINDS),
  total: z.number(),
  hits: z.array(SearchHit),
});
export type SearchGroup = z.infer<typeof SearchGroup>;
/** Only the kinds the caller may search are present. */
export const SystemSearchResult = z.object({ q: z.string(), groups: z.array(SearchGroup) });
export type SystemSearchResult = z.infer<typeof SystemSearchResult>;

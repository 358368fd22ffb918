import { createHash, randomBytes } from 'node:crypto';
import type { CalendarFeedView } from '@cc/contracts';
import { isUniqueViolation } from '../entities/queries';
import { entityScope, inScope } from '../entities/scope';
import { actorOf, type Ctx } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import { findUserByRef } from '../users/queries';
import { bookingsUrl } from './calendar-jobs';
import {
  heldSessions,
  insertFeed,
  liveFeedOf,
  revokeFeeds,
  sessionIdByRef,
  sessionsForCalendar,
  useFeed,
} from './calendar-queries';
import { hostOf, renderCalendar } from './ical';

/**
 * The personal calendar feed and "add to calendar" (issue 15 "Calendar invites that stay right"):
 * - GET/POST/DELETE /users/{id}/calendar-feed: oneself only (403 for someone else one may see, 404 otherwise). The
 *   token is 32 random bytes (base64url); only its sha-256 is stored, so the URL is shown once, by POST. POST makes a
 *   new link and revokes the old in one transaction (a partial unique index keeps one live link per user).
 * - GET /calendar/{token}.ics without sign-in: the sessions the user holds a place on, from 90 days back.
 * - GET /training-sessions/{id}/calendar.ics: the caller's own booking (404 without one).
 */
export const FEED_DAYS_BACK = 90;
const DAY_MS = 86_400_000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

async function ownFeedUser(ctx: Ctx, ref: string) {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (user?.id === actor.userId) return actor;
  if (user && inScope(await entityScope(ctx), user.primary_entity_id)) throw forbidden();
  throw notFound();
}

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
export const feedUrl = (appUrl: string, token: string) =>
  `${appUrl.replace(/\/$/, '')}/api/calendar/${token}.ics`;

export async function getCalendarFeed(ctx: Ctx, ref: string): Promise<CalendarFeedView> {
  const actor = await ownFeedUser(ctx, ref);
  const feed = await liveFeedOf(ctx.db, actor.userId);
  return {
    active: !!feed,
    url: null,
    created_at: iso(feed?.created_at ?? null),
    last_used_at: iso(feed?.last_used_at ?? null),
  };
}

export async function createCalendarFeed(ctx: Ctx, ref: string): Promise<CalendarFeedView> {
  const actor = await ownFeedUser(ctx, ref);
  const token = randomBytes(32).toString('base64url');
  const make = () =>
    ctx.db.transaction().execute(async (trx) => {
      const now = ctx.clock();
      await revokeFeeds(trx, actor.userId, now);
      return insertFeed(trx, actor.userId, hashToken(token), now);
    });
  let feed: Awaited<ReturnType<typeof make>>;
  try {
    feed = await make();
  } catch (error) {
    // Two POSTs at once: the other made its link first; revoke that one too (the newest link wins).
    if (!isUniqueViolation(error, 'calendar_feeds_live_uq')) throw error;
    feed = await make();
  }
  return {
    active: true,
    url: feedUrl(ctx.config.appUrl, token),
    created_at: iso(feed.created_at),
    last_used_at: null,
  };
}

export async function revokeCalendarFeed(ctx: Ctx, ref: string): Promise<CalendarFeedView> {
  const actor = await ownFeedUser(ctx, ref);
  await revokeFeeds(ctx.db, actor.userId, ctx.clock());
  return { active: false, url: null, created_at: null, last_used_at: null };
}

async function renderHeld(ctx: Ctx, held: { id: number; sequence: number }[], name?: string) {
  const sessions = await sessionsForCalendar(
    ctx.db,
    held.map((h) => h.id),
  );
  const entries = held.flatMap((h) => {
    const s = sessions.find((x) => x.id === h.id);
    return s ? [{ session: { ...s, cancelled: s.status === 'cancelled' }, sequence: h.sequence }] : [];
  });
  return renderCalendar(entries, {
    method: 'PUBLISH',
    host: hostOf(ctx.config.appUrl),
    now: ctx.clock(),
    name,
    url: bookingsUrl(ctx.config.appUrl),
  });
}

/** GET /calendar/{token}.ics: null for a token that is malformed, unknown or revoked (the route answers 404). */
export async function calendarFeedIcs(ctx: Ctx, token: string): Promise<string | null> {
  if (!TOKEN_SHAPE.test(token)) return null;
  const now = ctx.clock();
  const feed = await useFeed(ctx.db, hashToken(token), now);
  if (!feed) return null;
  const held = await heldSessions(ctx.db, feed.user_id, new Date(now.getTime() - FEED_DAYS_BACK * DAY_MS));
  return renderHeld(ctx, held, 'My training sessions');
}

/** GET /training-sessions/{id}/calendar.ics: the caller's own booking on it ("add to calendar"). */
export async function sessionIcs(ctx: Ctx, ref: string): Promise<string> {
  const actor = actorOf(ctx);
  const sessionId = await sessionIdByRef(ctx.db, ref);
  if (sessionId === undefined) throw notFound();
  const held = await heldSessions(ctx.db, actor.userId, new Date(0), sessionId);
  if (held.length === 0) throw notFound();
  return renderHeld(ctx, held);
}

import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { InviteDay } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';

/**
 * SQL of calendar invites, booking notices and the calendar feed (STYLE.md "SQL in one place").
 */

/** The facts an invite or a notice needs about delegates: the person, the session, the last invite sent. */
function delegateFactsQuery(db: DbOrTrx) {
  return db
    .selectFrom('session_delegates as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .innerJoin('training_sessions as s', 's.id', 'd.session_id')
    .innerJoin('entities as p', 'p.id', 's.entity_id')
    .innerJoin('courses as c', 'c.id', 's.course_id')
    .leftJoin('booking_invites as bi', 'bi.delegate_id', 'd.id')
    .select([
      'd.id',
      'd.session_id',
      'd.user_id',
      'd.entity_id',
      'd.status',
      'd.offer_expires_at',
      'd.booked_by',
      'u.name as user_name',
      'u.email as user_email',
      's.course_id',
      'bi.method as last_invite',
      'bi.dates as last_dates',
    ]);
}
export type DelegateFacts = Awaited<ReturnType<ReturnType<typeof delegateFactsQuery>['execute']>>[number];

export async function delegateFacts(db: DbOrTrx, delegateId: number) {
  return delegateFactsQuery(db).where('d.id', '=', delegateId).executeTakeFirst();
}

export async function delegatesOfSession(db: DbOrTrx, sessionId: number) {
  return delegateFactsQuery(db).where('d.session_id', '=', sessionId).orderBy('d.id').execute();
}

/** What an .ics says about sessions: the provider, course, place and every date. */
export async function sessionsForCalendar(db: DbOrTrx, sessionIds: number[]) {
  if (sessionIds.length === 0) return [];
  const [sessions, dates] = await Promise.all([
    db
      .selectFrom('training_sessions as s')
      .innerJoin('entities as p', 'p.id', 's.entity_id')
      .innerJoin('courses as c', 'c.id', 's.course_id')
      .select([
        's.id',
        's.uuid',
        's.status',
        's.sequence',
        's.venue',
        's.room',
        's.virtual',
        's.virtual_url',
        's.aim',
        's.starts_at',
        'p.name as provider',
        'c.title',
      ])
      .where('s.id', 'in', sessionIds)
      .execute(),
    db
      .selectFrom('training_session_dates')
      .select(['session_id', 'position', 'starts_at', 'ends_at'])
      .where('session_id', 'in', sessionIds)
      .orderBy('session_id')
      .orderBy('position')
      .execute(),
  ]);
  return sessions.map((s) => ({
    ...s,
    dates: dates
      .filter((d) => d.session_id === s.id)
      .map((d) => ({ position: d.position, starts_at: new Date(d.starts_at), ends_at: new Date(d.ends_at) })),
  }));
}
export type CalendarSession = Awaited<ReturnType<typeof sessionsForCalendar>>[number];

/**
 * The managers of people at an organisation: holders of `permission` (the manager dashboard) through their type or a
 * grant, allowed by their organisation, whose primary organisation is that one or one above it. Super admins are
 * left out (they run the platform, not a home), as in the weekly digest.
 */
export async function managersOf(db: DbOrTrx, entityIds: number[], permission: number) {
  if (entityIds.length === 0) return [];
  const { rows } = await sql<{ entity_id: number; user_id: number }>`
    WITH RECURSIVE chain AS (
      SELECT e.id AS entity_id, e.id, e.parent_id, 0 AS depth FROM entities e WHERE e.id IN (${sql.join(entityIds)})
      UNION ALL
      SELECT c.entity_id, e.id, e.parent_id, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id
      WHERE c.depth < 50
    )
    SELECT DISTINCT c.entity_id, u.id AS user_id
    FROM chain c JOIN users u ON u.primary_entity_id = c.id
    WHERE u.super_admin = false
      AND EXISTS (SELECT 1 FROM entity_permissions ep WHERE ep.entity_id = u.primary_entity_id
        AND ep.permission_id = ${permission}
        AND (ep.permission_id IN (SELECT permission_id FROM type_permissions WHERE type_id = u.type_id)
          OR ep.permission_id IN (SELECT permission_id FROM user_permissions WHERE user_id = u.id)))
    ORDER BY c.entity_id, u.id`.execute(db);
  return rows;
}

/** The next SEQUENCE of a delegate's invites: one UPDATE, so two changes at once get two different numbers. */
export async function bumpInviteSequence(db: DbOrTrx, delegateId: number): Promise<number> {
  const row = await db
    .updateTable('session_delegates')
    .set({ invite_sequence: sql`invite_sequence + 1` })
    .where('id', '=', delegateId)
    .returning('invite_sequence')
    .executeTakeFirstOrThrow();
  return row.invite_sequence;
}

export async function recordInvite(
  db: DbOrTrx,
  delegateId: number,
  invite: { method: 'REQUEST' | 'CANCEL'; sequence: number; dates: InviteDay[] },
  now: Date,
) {
  const values = { ...invite, dates: JSON.stringify(invite.dates), sent_at: now };
  await db
    .insertInto('booking_invites')
    .values({ delegate_id: delegateId, ...values })
    .onConflict((oc) => oc.column('delegate_id').doUpdateSet(values))
    .execute();
}

export async function recipientOf(db: DbOrTrx, userId: number) {
  return db.selectFrom('users').select(['id', 'name', 'email']).where('id', '=', userId).executeTakeFirst();
}

// --- The personal feed ---------------------------------------------------------------------------------------

export async function liveFeedOf(db: DbOrTrx, userId: number) {
  return db
    .selectFrom('calendar_feeds')
    .select(['id', 'created_at', 'last_used_at'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

export async function revokeFeeds(db: DbOrTrx, userId: number, now: Date) {
  const rows = await db
    .updateTable('calendar_feeds')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.length;
}

export async function insertFeed(db: DbOrTrx, userId: number, tokenHash: string, now: Date) {
  return db
    .insertInto('calendar_feeds')
    .values({ user_id: userId, token_hash: tokenHash, created_at: now })
    .returning(['id', 'created_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
}

/** A live feed by its token's hash, marked used in the same statement (null: unknown or revoked). */
export async function useFeed(db: Db, tokenHash: string, now: Date) {
  return db
    .updateTable('calendar_feeds')
    .set({ last_used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('revoked_at', 'is', null)
    .returning(['id', 'user_id'])
    .executeTakeFirst();
}

/**
 * The sessions a user holds a place on (or was marked on) that end after `since`, each with the SEQUENCE to write:
 * the higher of the delegate's last invite and the session's own, so "add to calendar" never goes behind an invite.
 */
export async function heldSessions(db: DbOrTrx, userId: number, since: Date, sessionId?: number) {
  let q = db
    .selectFrom('session_delegates as d')
    .innerJoin('training_sessions as s', 's.id', 'd.session_id')
    .select(['s.id', sql<number>`greatest(d.invite_sequence, s.sequence)`.as('sequence')])
    .where('d.user_id', '=', userId)
    .where(sql<SqlBool>`(d.status IN ('pending', 'accepted', 'offered') OR d.attendance IS NOT NULL)`)
    .where('s.ends_at', '>=', since)
    .orderBy('s.starts_at');
  if (sessionId !== undefined) q = q.where('s.id', '=', sessionId);
  return q.execute();
}

export async function sessionIdByRef(db: DbOrTrx, ref: string) {
  let q = db.selectFrom('training_sessions').select('id');
  if (/^\d{1,9}$/.test(ref)) q = q.where('id', '=', Number(ref));
  else if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref))
    q = q.where('uuid', '=', ref.toLowerCase());
  else return undefined;
  return (await q.executeTakeFirst())?.id;
}

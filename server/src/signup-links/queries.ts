import { type SqlBool, sql } from 'kysely';
import { pageWithTotal } from '../db/paged';
import type { DbOrTrx } from '../jobs/queries';

/** SQL of sign-up links (issue 18): the only place it is built. */

/** A link as lists show it, with its organisation, role, type, certificate version, creator and pending count. */
export function linkSelect(db: DbOrTrx) {
  return db
    .selectFrom('signup_links as l')
    .innerJoin('entities as e', 'e.id', 'l.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'l.role_id')
    .leftJoin('entity_types as t', 't.id', 'l.type_id')
    .leftJoin('care_certificate_versions as v', 'v.id', 'l.care_certificate_version_id')
    .leftJoin('users as c', 'c.id', 'l.created_by')
    .select([
      'l.id',
      'l.uuid',
      'l.entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'l.role_id',
      'r.name as role_name',
      'l.type_id',
      't.name as type_name',
      'l.start_date',
      'l.expires_at',
      'l.max_uses',
      'l.uses',
      'l.revoked_at',
      'l.created_at',
      'l.care_certificate_when',
      'v.id as version_id',
      'v.code as version_code',
      'v.title as version_title',
      'c.id as creator_id',
      'c.uuid as creator_uuid',
      'c.name as creator_name',
      sql<number>`(SELECT count(*) FROM signup_link_signups s
        WHERE s.link_id = l.id AND s.status = 'pending')::int`.as('pending'),
    ]);
}
export type LinkRow = Awaited<ReturnType<ReturnType<typeof linkSelect>['executeTakeFirstOrThrow']>>;

/** A page of links of these organisations, newest first; `activeAt` keeps only those that still work then. */
export async function listLinks(
  db: DbOrTrx,
  f: { entityIds: number[] | null; activeAt: Date | null; page: number; perPage: number },
) {
  if (f.entityIds && !f.entityIds.length) return { rows: [], total: 0 };
  let q = linkSelect(db);
  if (f.entityIds) q = q.where('l.entity_id', 'in', f.entityIds);
  if (f.activeAt) q = q.where(usable(f.activeAt));
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('l.created_at', 'desc').orderBy('l.id', 'desc'),
    { page: f.page, perPage: f.perPage },
  );
  return { rows, total };
}

/** The condition of a link that still takes sign-ups at `now`. */
const usable = (now: Date) =>
  sql<SqlBool>`l.revoked_at IS NULL AND l.expires_at > ${now} AND (l.max_uses IS NULL OR l.uses < l.max_uses)`;

export function findLink(db: DbOrTrx, id: number) {
  return linkSelect(db).where('l.id', '=', id).executeTakeFirst();
}

/** The link of a token, whatever its state (the caller decides; every refusal reads the same). */
export function findLinkByHash(db: DbOrTrx, tokenHash: string) {
  return db
    .selectFrom('signup_links as l')
    .innerJoin('entities as e', 'e.id', 'l.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'l.role_id')
    .select([
      'l.id',
      'l.entity_id',
      'e.name as entity_name',
      'e.slug as entity_slug',
      'r.name as role_name',
      'l.start_date',
      'l.expires_at',
      'l.revoked_at',
      'l.max_uses',
      'l.uses',
    ])
    .where('l.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

/**
 * Spends one use of a working link in one statement, when a sign-up through it is confirmed (issue 29 §5): the row
 * lock of the UPDATE serialises concurrent confirmations, and the condition is re-read after the lock, so `uses`
 * never passes `max_uses`. Undefined: the link does not work.
 */
export function spendUseById(trx: DbOrTrx, linkId: number, now: Date) {
  return trx
    .updateTable('signup_links as l')
    .set((eb) => ({ uses: eb('l.uses', '+', 1) }))
    .where('l.id', '=', linkId)
    .where(usable(now))
    .returning([
      'l.id',
      'l.entity_id',
      'l.role_id',
      'l.type_id',
      'l.start_date',
      'l.care_certificate_version_id',
      'l.care_certificate_when',
      'l.created_by',
    ])
    .executeTakeFirst();
}

/** A sign-up waiting for its address to be confirmed (issue 29 §5). */
export async function insertPendingSignup(
  db: DbOrTrx,
  row: {
    token_hash: string;
    link_id: number;
    name: string;
    email: string;
    password_hash: string;
    created_at: Date;
    expires_at: Date;
  },
): Promise<void> {
  await db.insertInto('pending_signups').values(row).execute();
}

/** Takes the unexpired pending sign-up of a confirm token (deleted: the link works once), or undefined. */
export function takePendingSignup(trx: DbOrTrx, tokenHash: string, now: Date) {
  return trx
    .deleteFrom('pending_signups')
    .where('token_hash', '=', tokenHash)
    .where('expires_at', '>', now)
    .returning(['link_id', 'name', 'email', 'password_hash'])
    .executeTakeFirst();
}

/** Sign-ups never confirmed are dropped with the hourly sweep. */
export async function purgeExpiredSignups(db: DbOrTrx, now: Date): Promise<void> {
  await db.deleteFrom('pending_signups').where('expires_at', '<=', now).execute();
}

/** Revokes a link not yet revoked; undefined when it was (one statement, so two revokes cannot both succeed). */
export function revokeLink(trx: DbOrTrx, id: number, now: Date) {
  return trx
    .updateTable('signup_links')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
}

export function signupSelect(db: DbOrTrx) {
  return db
    .selectFrom('signup_link_signups as s')
    .innerJoin('signup_links as l', 'l.id', 's.link_id')
    .innerJoin('entities as e', 'e.id', 'l.entity_id')
    .innerJoin('entity_roles as r', 'r.id', 'l.role_id')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('users as d', 'd.id', 's.decided_by')
    .select([
      's.id',
      's.uuid',
      's.name',
      's.email',
      's.status',
      's.account',
      's.created_at',
      's.decided_at',
      's.link_id',
      'l.entity_id',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'l.role_id',
      'r.name as role_name',
      'l.start_date',
      'u.id as user_id',
      'u.uuid as user_uuid',
      'd.id as decider_id',
      'd.uuid as decider_uuid',
      'd.name as decider_name',
    ]);
}
export type SignupRow = Awaited<ReturnType<ReturnType<typeof signupSelect>['executeTakeFirstOrThrow']>>;

export async function listSignups(
  db: DbOrTrx,
  f: {
    entityIds: number[] | null;
    status: 'pending' | 'approved' | 'rejected';
    linkId?: number;
    search?: string;
    page: number;
    perPage: number;
  },
) {
  if (f.entityIds && !f.entityIds.length) return { rows: [], total: 0 };
  let q = signupSelect(db).where('s.status', '=', f.status);
  if (f.entityIds) q = q.where('l.entity_id', 'in', f.entityIds);
  if (f.linkId !== undefined) q = q.where('s.link_id', '=', f.linkId);
  if (f.search) {
    const pattern = `%${f.search.replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where((eb) => eb.or([eb('s.name', 'ilike', pattern), eb('s.email', 'ilike', pattern)]));
  }
  const { rows, total } = await pageWithTotal(
    q,
    (filtered) => filtered.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc'),
    { page: f.page, perPage: f.perPage },
  );
  return { rows, total };
}

export function findSignup(db: DbOrTrx, id: number) {
  return signupSelect(db).where('s.id', '=', id).executeTakeFirst();
}

/**
 * Decides a pending sign-up in one statement (approve and reject race on it: the loser finds it decided).
 * Returns the row as it was decided, or undefined when it was no longer pending.
 */
export function decideSignup(
  trx: DbOrTrx,
  id: number,
  d: { status: 'approved' | 'rejected'; by: number; at: Date },
) {
  return trx
    .updateTable('signup_link_signups')
    .set({ status: d.status, decided_by: d.by, decided_at: d.at })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returning(['id', 'link_id', 'user_id'])
    .executeTakeFirst();
}

/** Whether the user has learned anything (an attempt or a result): then a rejection keeps the account. */
export async function hasLearningRecords(trx: DbOrTrx, userId: number): Promise<boolean> {
  const row = await sql<{ any: boolean }>`SELECT
    EXISTS (SELECT 1 FROM attempts WHERE user_id = ${userId})
    OR EXISTS (SELECT 1 FROM results WHERE user_id = ${userId}) AS any`.execute(trx);
  return Boolean(row.rows[0]?.any);
}

import { type DelegateStatus, type DelegatesQuery, TRAINING_PROVIDER_DEFAULTS } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/** SQL of delegates (issue 15): the only place the delegate services build queries. */
type DbOrTrx = Db | Trx;

const PROVIDER_DEFAULTS = TRAINING_PROVIDER_DEFAULTS;

/** The facts about a session the delegate rules need (owner, state, capacity, owner's provider settings). */
export async function findSessionFacts(db: DbOrTrx, sessionId: number) {
  const row = await db
    .selectFrom('training_sessions as s')
    .innerJoin('entities as e', 'e.id', 's.entity_id')
    .leftJoin('training_provider_settings as tps', 'tps.entity_id', 's.entity_id')
    .select([
      's.id',
      's.entity_id',
      's.status',
      's.starts_at',
      's.ends_at',
      's.max_delegates',
      's.places_taken',
      's.available_to',
      's.trainer_id',
      'e.is_training_company',
      'e.training_company_status',
      'tps.delegate_auto_accept_period',
      'tps.delegate_removal_cutoff_hours',
    ])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    ...row,
    starts_at: new Date(row.starts_at),
    ends_at: new Date(row.ends_at),
    autoAcceptHours: row.delegate_auto_accept_period ?? PROVIDER_DEFAULTS.delegate_auto_accept_period,
    removalCutoffHours: row.delegate_removal_cutoff_hours ?? PROVIDER_DEFAULTS.delegate_removal_cutoff_hours,
  };
}
export type SessionFacts = NonNullable<Awaited<ReturnType<typeof findSessionFacts>>>;

/** The level A organisation at the top of each entity's branch (a_entity), for many entities in one query. */
export async function aEntitiesOf(db: DbOrTrx, entityIds: number[]): Promise<Map<number, number>> {
  if (!entityIds.length) return new Map();
  const { rows } = await sql<{ start: number; id: number }>`
    WITH RECURSIVE chain AS (
      SELECT id AS start, id, parent_id, level, 0 AS depth FROM entities WHERE id IN (${sql.join(entityIds)})
      UNION ALL
      SELECT c.start, e.id, e.parent_id, e.level, c.depth + 1
      FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT DISTINCT ON (start) start, id FROM chain
    ORDER BY start, (level = 'A') DESC, depth DESC`.execute(db);
  return new Map(rows.map((r) => [r.start, r.id]));
}

/** Whether the a_entity flags allow external bookings (the marketplace, orders, providers' sessions). */
export async function canViewExternal(db: DbOrTrx, aEntityId: number): Promise<boolean> {
  const row = await db
    .selectFrom('entities')
    .select('can_view_external_bookings')
    .where('id', '=', aEntityId)
    .executeTakeFirst();
  return row?.can_view_external_bookings ?? false;
}

export async function findUsers(db: DbOrTrx, ids: number[]) {
  if (!ids.length) return [];
  return db
    .selectFrom('users')
    .select(['id', 'uuid', 'name', 'primary_entity_id'])
    .where('id', 'in', ids)
    .execute();
}
export type DelegateUser = Awaited<ReturnType<typeof findUsers>>[number];

export async function findDelegate(db: DbOrTrx, id: number) {
  return db.selectFrom('session_delegates').selectAll().where('id', '=', id).executeTakeFirst();
}

/** The delegate's row, locked until the transaction ends: two concurrent actions on it run one after the other. */
export async function lockDelegate(trx: Trx, id: number) {
  return trx.selectFrom('session_delegates').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
}
export type DelegateRow = NonNullable<Awaited<ReturnType<typeof lockDelegate>>>;

/** A user's row on a session, locked (a declined/deleted row is reused rather than inserted again). */
export async function lockDelegateOf(trx: Trx, sessionId: number, userId: number) {
  return trx
    .selectFrom('session_delegates')
    .selectAll()
    .where('session_id', '=', sessionId)
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
}

/**
 * A new row for the user, provisional as waitlisted (the final status is set once the place is decided), or nothing
 * when another transaction holds a row for them: ON CONFLICT DO NOTHING keeps the transaction alive.
 */
export async function insertDelegate(
  trx: Trx,
  d: {
    sessionId: number;
    userId: number;
    entityId: number;
    context: 'download' | 'online';
    bookedBy: number | null;
    orderId: number | null;
    now: Date;
  },
) {
  return trx
    .insertInto('session_delegates')
    .values({
      session_id: d.sessionId,
      user_id: d.userId,
      entity_id: d.entityId,
      context: d.context,
      booked_by: d.bookedBy,
      order_id: d.orderId,
      status: 'waitlisted',
      waitlisted_at: d.now,
      created_at: d.now,
      updated_at: d.now,
    })
    .onConflict((oc) => oc.columns(['session_id', 'user_id']).doNothing())
    .returningAll()
    .executeTakeFirst();
}

export interface DelegateChange {
  status: DelegateStatus;
  now: Date;
  waitlistedAt?: Date | null;
  offerExpiresAt?: Date | null;
  context?: 'download' | 'online';
  bookedBy?: number | null;
  orderId?: number | null;
  entityId?: number;
  /** A reused row starts again: no attendance, mark or check-in of an earlier booking. */
  fresh?: boolean;
}

export async function setDelegateStatus(trx: Trx, id: number, c: DelegateChange) {
  await trx
    .updateTable('session_delegates')
    .set({
      status: c.status,
      updated_at: c.now,
      waitlisted_at: c.status === 'waitlisted' ? (c.waitlistedAt ?? c.now) : null,
      offer_expires_at: c.status === 'offered' ? (c.offerExpiresAt ?? null) : null,
      ...(c.context ? { context: c.context } : {}),
      ...(c.bookedBy !== undefined ? { booked_by: c.bookedBy } : {}),
      ...(c.orderId !== undefined ? { order_id: c.orderId } : {}),
      ...(c.entityId !== undefined ? { entity_id: c.entityId } : {}),
      ...(c.fresh
        ? {
            attendance: null,
            passed: null,
            score: null,
            notes: null,
            checked_in_at: null,
            marked_by: null,
            marked_at: null,
            result_id: null,
            created_at: c.now,
          }
        : {}),
    })
    .where('id', '=', id)
    .execute();
}

const delegateColumns = (db: DbOrTrx) =>
  db
    .selectFrom('session_delegates as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .select(['d.id', 'd.session_id']);

const statusOrder = sql`CASE d.status WHEN 'accepted' THEN 0 WHEN 'pending' THEN 1 WHEN 'offered' THEN 2
  WHEN 'requested' THEN 3 WHEN 'waitlisted' THEN 4 WHEN 'declined' THEN 5 ELSE 6 END`;

/** A page of a session's delegates; `entityIds` bounds them to the caller's organisations (null: all of them). */
export async function delegatesPage(
  db: DbOrTrx,
  sessionId: number,
  entityIds: readonly number[] | null,
  query: DelegatesQuery,
) {
  let q = delegateColumns(db).where('d.session_id', '=', sessionId);
  if (entityIds)
    q = entityIds.length ? q.where('d.entity_id', 'in', [...entityIds]) : q.where(sql<boolean>`false`);
  if (query.status) q = q.where('d.status', '=', query.status);
  if (query.search) q = q.where('u.name', 'ilike', `%${query.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const [rows, total] = await Promise.all([
    q
      .orderBy(statusOrder)
      .orderBy('d.waitlisted_at')
      .orderBy('u.name')
      .orderBy('d.id')
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)
      .execute(),
    q
      .clearSelect()
      .clearOrderBy()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Whether any delegate of the session belongs to one of the entities (a manager whose staff are booked on it). */
export async function sessionHasDelegatesIn(
  db: DbOrTrx,
  sessionId: number,
  entityIds: readonly number[] | 'all',
) {
  let q = db.selectFrom('session_delegates').select('id').where('session_id', '=', sessionId);
  if (entityIds !== 'all') {
    if (!entityIds.length) return false;
    q = q.where('entity_id', 'in', [...entityIds]);
  }
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

/** A page of one user's bookings (GET /users/{id}/bookings), soonest first (latest first for the past). */
export async function userBookingsPage(
  db: DbOrTrx,
  userId: number,
  scope: 'upcoming' | 'waitlisted' | 'past' | 'all',
  now: Date,
  page: { page: number; per_page: number },
) {
  let q = delegateColumns(db)
    .innerJoin('training_sessions as s', 's.id', 'd.session_id')
    .where('d.user_id', '=', userId);
  if (scope === 'upcoming')
    q = q
      .where('d.status', 'in', ['requested', 'pending', 'accepted', 'offered'])
      .where('s.status', 'in', ['scheduled', 'confirmed'])
      .where('s.ends_at', '>', now);
  else if (scope === 'waitlisted')
    q = q
      .where('d.status', '=', 'waitlisted')
      .where('s.status', 'in', ['scheduled', 'confirmed'])
      .where('s.ends_at', '>', now);
  else if (scope === 'past')
    q = q
      .where('d.status', 'in', ['pending', 'accepted'])
      .where((eb) => eb.or([eb('s.ends_at', '<=', now), eb('s.status', 'in', ['completed', 'incomplete'])]));
  const ordered =
    scope === 'past' || scope === 'all' ? q.orderBy('s.starts_at', 'desc') : q.orderBy('s.starts_at', 'asc');
  const [rows, total] = await Promise.all([
    ordered
      .orderBy('d.id')
      .limit(page.per_page)
      .offset((page.page - 1) * page.per_page)
      .execute(),
    q
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(total.n) };
}

/** Pending delegates whose provider did not act within delegate_auto_accept_period (the auto-accept job). */
export async function lockDuePending(trx: Trx, now: Date, limit = 200) {
  return trx
    .selectFrom('session_delegates as d')
    .innerJoin('training_sessions as s', 's.id', 'd.session_id')
    .leftJoin('training_provider_settings as tps', 'tps.entity_id', 's.entity_id')
    .select(['d.id'])
    .where('d.status', '=', 'pending')
    .where('s.status', 'in', ['scheduled', 'confirmed'])
    .where(
      sql<boolean>`d.updated_at + make_interval(hours => coalesce(tps.delegate_auto_accept_period, ${PROVIDER_DEFAULTS.delegate_auto_accept_period})) <= ${now}`,
    )
    .orderBy('d.updated_at')
    .limit(limit)
    .forUpdate('d')
    .skipLocked()
    .execute();
}

export type { DbOrTrx };

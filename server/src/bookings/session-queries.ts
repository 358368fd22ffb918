import type { SessionDate, TrainingSessionsQuery } from '@cc/contracts';
import { type RawBuilder, type SqlBool, sql, type Updateable } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { TrainingSessionsTable } from '../db/schema';
import type { Trx } from '../results/queries';
import { type SessionScope, sessionVisibleWhere } from './scope';

/** SQL of training sessions (issue 15). Services hold the rules; the list's scope comes from scope.ts. */

/** The days' local (Europe/London) times as instants, in the order given: one statement for every day. */
export async function localInstants(
  db: Db | Trx,
  days: readonly SessionDate[],
): Promise<{ starts_at: Date; ends_at: Date }[]> {
  const rows = sql.join(
    days.map(
      (d, i) => sql`(${i}::int, ${d.date}::date, ${`${d.startTime}:00`}::time, ${`${d.endTime}:00`}::time)`,
    ),
  );
  const { rows: out } = await sql<{ position: number; starts_at: Date; ends_at: Date }>`
    SELECT v.position,
      (v.day + v.start_time) AT TIME ZONE 'Europe/London' AS starts_at,
      (v.day + v.end_time) AT TIME ZONE 'Europe/London' AS ends_at
    FROM (VALUES ${rows}) AS v(position, day, start_time, end_time)
    ORDER BY v.position`.execute(db);
  return out.map((r) => ({ starts_at: new Date(r.starts_at), ends_at: new Date(r.ends_at) }));
}

export async function insertSessionDates(
  trx: Trx,
  sessionId: number,
  days: readonly SessionDate[],
  instants: readonly { starts_at: Date; ends_at: Date }[],
) {
  await trx.deleteFrom('training_session_dates').where('session_id', '=', sessionId).execute();
  await trx
    .insertInto('training_session_dates')
    .values(
      days.map((d, i) => ({
        session_id: sessionId,
        position: i,
        date: d.date,
        start_time: `${d.startTime}:00`,
        end_time: `${d.endTime}:00`,
        starts_at: instants[i]?.starts_at ?? new Date(Number.NaN),
        ends_at: instants[i]?.ends_at ?? new Date(Number.NaN),
      })),
    )
    .execute();
}

export async function sessionDays(db: Db | Trx, sessionId: number): Promise<SessionDate[]> {
  const { rows } = await sql<SessionDate>`
    SELECT to_char(date, 'YYYY-MM-DD') AS date, to_char(start_time, 'HH24:MI') AS "startTime",
      to_char(end_time, 'HH24:MI') AS "endTime"
    FROM training_session_dates WHERE session_id = ${sessionId} ORDER BY position`.execute(db);
  return rows;
}

/** Face-to-face content the caller may see (`visible`: courses/visibility.ts content clause over `ct`). */
export async function findFace2faceContent(db: Db | Trx, id: number, visible: RawBuilder<SqlBool>) {
  const { rows } = await sql<{ id: number; course_id: number; entity_id: number | null }>`
    SELECT ct.id, ct.course_id, ct.entity_id FROM contents ct
    WHERE ct.id = ${id} AND ct.type = 'face2face' AND ${visible}`.execute(db);
  return rows[0];
}

/** A trainer (is_trainer) whose organisation is in `entityIds` (null: any). */
export async function findTrainer(db: Db | Trx, id: number, entityIds: number[] | null) {
  let q = db
    .selectFrom('users')
    .select(['id', 'primary_entity_id'])
    .where('id', '=', id)
    .where('is_trainer', '=', true);
  if (entityIds) q = q.where('primary_entity_id', 'in', entityIds.length ? entityIds : [0]);
  return q.executeTakeFirst();
}

export async function cancellationReasons(db: Db | Trx) {
  return db
    .selectFrom('cancellation_reasons')
    .select(['id', 'name'])
    .orderBy('position')
    .orderBy('id')
    .execute();
}

export async function findCancellationReason(db: Db | Trx, id: number) {
  return db.selectFrom('cancellation_reasons').select(['id', 'name']).where('id', '=', id).executeTakeFirst();
}

export async function updateSession(
  trx: Trx,
  id: number,
  values: Updateable<TrainingSessionsTable>,
  now: Date,
) {
  return trx
    .updateTable('training_sessions')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function bumpSequence(trx: Trx, id: number) {
  await trx
    .updateTable('training_sessions')
    .set((eb) => ({ sequence: eb('sequence', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

/**
 * One page of session ids the caller sees (scope.ts sessionVisibleWhere), with the filters; ordered by start.
 * `mine`: only the caller's sessions as trainer. from/to bound the sessions' days (Europe/London dates).
 */
export async function listSessionIds(
  db: Db,
  scope: SessionScope,
  q: TrainingSessionsQuery & { entityIds?: number[] | null },
): Promise<{ ids: number[]; total: number }> {
  let query = db
    .selectFrom('training_sessions as s')
    .innerJoin('contents as c', 'c.id', 's.content_id')
    .where(sessionVisibleWhere(scope));
  if (q.mine) query = query.where('s.trainer_id', '=', scope.userId);
  if (q.entityIds) query = query.where('s.entity_id', 'in', q.entityIds.length ? q.entityIds : [0]);
  if (q.content_id) query = query.where('s.content_id', '=', q.content_id);
  if (q.trainer_id) query = query.where('s.trainer_id', '=', q.trainer_id);
  if (q.status) query = query.where('s.status', '=', q.status);
  if (q.has_places) query = query.whereRef('s.places_taken', '<', 's.max_delegates');
  if (q.from || q.to) {
    const from = q.from ?? null;
    const to = q.to ?? null;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('training_session_dates as d')
          .select('d.id')
          .whereRef('d.session_id', '=', 's.id')
          .where(sql<SqlBool>`(${from}::date IS NULL OR d.date >= ${from}::date)`)
          .where(sql<SqlBool>`(${to}::date IS NULL OR d.date <= ${to}::date)`),
      ),
    );
  }
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;
    query = query.where((eb) =>
      eb.or([
        eb('c.title', 'ilike', like),
        eb('s.venue', 'ilike', like),
        eb('s.room', 'ilike', like),
        eb('s.area', 'ilike', like),
      ]),
    );
  }
  const { rows, total: count } = await pageWithTotal(
    query,
    (filtered) => filtered.select('s.id').orderBy('s.starts_at').orderBy('s.id'),
    { page: q.page, perPage: q.per_page },
  );
  return { ids: rows.map((r) => r.id), total: count };
}

/** The provider settings that drive the minimum-delegates decision (absent row: the contract's defaults). */
export async function dueForDecision(db: Db | Trx, now: Date, defaults: { hours: number; action: string }) {
  const { rows } = await sql<{ id: number }>`
    SELECT s.id FROM training_sessions s
    LEFT JOIN training_provider_settings p ON p.entity_id = s.entity_id
    WHERE s.status = 'scheduled' AND s.decided_at IS NULL
      AND s.starts_at - make_interval(hours => COALESCE(p.minimum_decision_hours, ${defaults.hours}::int)) <= ${now}
    ORDER BY s.starts_at, s.id
    LIMIT 500`.execute(db);
  return rows.map((r) => r.id);
}

/**
 * Decides one session under a guarded UPDATE (still scheduled and undecided): two workers cannot both decide it.
 * Returns the new status, or null when another worker already did.
 */
export async function decideSession(
  trx: Trx,
  id: number,
  now: Date,
  defaults: { hours: number; action: string },
  cancelReasonId: number | null,
): Promise<'confirmed' | 'cancelled' | null> {
  // The bookings' lock order (scope.ts loadSessionForActor): the session's delegate rows, then the session.
  await trx
    .selectFrom('session_delegates')
    .select('id')
    .where('session_id', '=', id)
    .orderBy('id')
    .forUpdate()
    .execute();
  const { rows } = await sql<{ status: 'confirmed' | 'cancelled' }>`
    UPDATE training_sessions s SET
      status = CASE WHEN s.places_taken >= s.min_delegates
        OR COALESCE(p.under_minimum_action, ${defaults.action}) = 'confirm' THEN 'confirmed' ELSE 'cancelled' END,
      decided_at = ${now},
      updated_at = ${now}
    FROM training_sessions s0
    LEFT JOIN training_provider_settings p ON p.entity_id = s0.entity_id
    WHERE s.id = ${id} AND s0.id = s.id AND s.status = 'scheduled' AND s.decided_at IS NULL
    RETURNING s.status`.execute(trx);
  const status = rows[0]?.status ?? null;
  if (status === 'cancelled') {
    await trx
      .updateTable('training_sessions')
      .set((eb) => ({
        cancellation_reason_id: cancelReasonId,
        cancellation_notes: null,
        cancelled_at: now,
        places_taken: 0,
        sequence: eb('sequence', '+', 1),
      }))
      .where('id', '=', id)
      .execute();
  }
  return status;
}

export async function reasonIdByName(db: Db | Trx, name: string) {
  const row = await db
    .selectFrom('cancellation_reasons')
    .select('id')
    .where('name', '=', name)
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * The training companies (their level A roots) whose sessions the organisation `orgIds` books with: a delegate of
 * its own on one of their sessions (any status but declined or removed), or a placed order of its own for their
 * places. Its own tree is never one of them, nor a training company a super admin has not approved (issue 29 §7).
 */
export async function bookedProviderIds(db: Db | Trx, orgIds: number[]): Promise<number[]> {
  if (!orgIds.length) return [];
  const own = sql.join(orgIds.map((id) => sql`${id}::int`));
  const { rows } = await sql<{ id: number }>`
    WITH RECURSIVE booked AS (
      SELECT DISTINCT s.entity_id AS id FROM training_sessions s
      WHERE s.entity_id NOT IN (${own}) AND (
        EXISTS (SELECT 1 FROM session_delegates d WHERE d.session_id = s.id AND d.entity_id IN (${own})
                AND d.status NOT IN ('declined', 'deleted'))
        OR EXISTS (SELECT 1 FROM training_orders o WHERE o.session_id = s.id AND o.entity_id IN (${own})
                AND o.status = 'placed'))
    ), chain AS (
      SELECT b.id AS start, e.id, e.parent_id, e.level, e.is_training_company, e.training_company_status, 0 AS depth
        FROM booked b JOIN entities e ON e.id = b.id
      UNION ALL
      SELECT c.start, e.id, e.parent_id, e.level, e.is_training_company, e.training_company_status, c.depth + 1
        FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT DISTINCT id FROM chain
    WHERE level = 'A' AND is_training_company AND training_company_status = 'approved' AND id NOT IN (${own})`.execute(
    db,
  );
  return rows.map((r) => Number(r.id));
}

/**
 * Trainers (is_trainer) whose primary entity is in `entityIds` (null: any), by name; `providerIds`: the
 * entities marked as a provider's in the answer. One page and the total.
 */
export async function listTrainers(
  db: Db,
  entityIds: number[] | null,
  providerIds: ReadonlySet<number>,
  q: { search?: string; limit: number; offset: number },
) {
  let query = db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .where('u.is_trainer', '=', true);
  if (entityIds) query = query.where('u.primary_entity_id', 'in', entityIds.length ? entityIds : [0]);
  if (q.search) {
    const like = `%${q.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    query = query.where((eb) => eb.or([eb('u.name', 'ilike', like), eb('u.email', 'ilike', like)]));
  }
  const [rows, count] = await Promise.all([
    query
      .select(['u.id', 'u.name', 'e.id as entity_id', 'e.name as entity_name'])
      .orderBy(sql`lower(u.name)`)
      .orderBy('u.id')
      .limit(q.limit)
      .offset(q.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirst(),
  ]);
  return {
    total: Number(count?.n ?? 0),
    data: rows.map((r) => ({
      id: r.id,
      name: r.name,
      entity: { id: r.entity_id, name: r.entity_name },
      provider: providerIds.has(r.entity_id),
    })),
  };
}

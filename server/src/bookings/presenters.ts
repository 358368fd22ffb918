import type { DelegateView, SessionDate, TrainingSessionView } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Ctx } from '../http/context';
import type { Trx } from '../results/queries';
import {
  mayBookSelf,
  mayEdit,
  mayManageDelegates,
  mayMark,
  maySeeCheckInCode,
  relationTo,
  type SessionScope,
  sessionScope,
} from './scope';

/**
 * The TrainingSessionView and DelegateView presenters (contracts bookings.ts). Each loader is ONE query for a page of
 * ids (days, waitlist counts, the caller's booking and the names joined or aggregated in SQL), so a list is never
 * N+1. Every session and delegate answer (REST, GraphQL, dashboards, available training) goes through here.
 */

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/** Delegate statuses that count as "booked" for the caller's own booking (a live row). */
const LIVE = ['requested', 'pending', 'accepted', 'waitlisted', 'offered'] as const;
const OPEN: readonly string[] = ['scheduled', 'confirmed'];

function sessionViewQuery(db: Db | Trx, ids: number[], userId: number) {
  return db
    .selectFrom('training_sessions as s')
    .innerJoin('entities as e', 'e.id', 's.entity_id')
    .innerJoin('contents as c', 'c.id', 's.content_id')
    .innerJoin('courses as co', 'co.id', 's.course_id')
    .leftJoin('users as t', 't.id', 's.trainer_id')
    .leftJoin('cancellation_reasons as cr', 'cr.id', 's.cancellation_reason_id')
    .leftJoin('session_delegates as my', (j) =>
      j.onRef('my.session_id', '=', 's.id').on('my.user_id', '=', userId),
    )
    .selectAll('s')
    .select([
      'e.slug as entity_slug',
      'e.name as entity_name',
      // Issue 29 §7: only an approved training company's sessions are offered to other organisations.
      sql<boolean>`(e.is_training_company AND e.training_company_status IS NOT DISTINCT FROM 'approved')`.as(
        'owner_is_approved_provider',
      ),
      'c.title as content_title',
      'co.title as course_title',
      't.uuid as trainer_uuid',
      't.name as trainer_name',
      'cr.name as cancellation_reason',
      'my.id as my_id',
      'my.status as my_status',
      sql<number>`(SELECT count(*)::int FROM session_delegates w
        WHERE w.session_id = s.id AND w.status = 'waitlisted')`.as('waitlist_count'),
      sql<SessionDate[] | string | null>`(SELECT json_agg(json_build_object(
          'date', to_char(d.date, 'YYYY-MM-DD'),
          'startTime', to_char(d.start_time, 'HH24:MI'),
          'endTime', to_char(d.end_time, 'HH24:MI')) ORDER BY d.position)
        FROM training_session_dates d WHERE d.session_id = s.id)`.as('dates'),
    ])
    .where('s.id', 'in', ids);
}

export type SessionViewRow = Awaited<ReturnType<ReturnType<typeof sessionViewQuery>['execute']>>[number];

export function presentSession(row: SessionViewRow, scope: SessionScope, now: Date): TrainingSessionView {
  const rawDates = row.dates;
  const dates: SessionDate[] = (typeof rawDates === 'string' ? JSON.parse(rawDates) : rawDates) ?? [];
  const first = dates[0] ?? { date: '', startTime: '', endTime: '' };
  const myLive =
    row.my_id !== null && row.my_status !== null && (LIVE as readonly string[]).includes(row.my_status);
  const rel = relationTo(
    scope,
    row,
    row.my_id !== null && row.my_status !== null ? { id: row.my_id, status: row.my_status } : null,
  );
  return {
    id: row.id,
    uuid: row.uuid,
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    contentId: row.content_id,
    content: { id: row.content_id, title: row.content_title },
    course: { id: row.course_id, title: row.course_title },
    date: first.date,
    startTime: first.startTime,
    endTime: first.endTime,
    dates,
    starts_at: iso(row.starts_at),
    ends_at: iso(row.ends_at),
    trainerId: row.trainer_id,
    trainer:
      row.trainer_id !== null && row.trainer_uuid !== null
        ? { id: row.trainer_id, uuid: row.trainer_uuid, name: row.trainer_name ?? '' }
        : null,
    venue: row.venue,
    room: row.room,
    virtual: row.virtual,
    virtual_url: row.virtual_url,
    area: row.area,
    aim: row.aim,
    contentCovered: row.content_covered,
    learningOutcomes: row.learning_outcomes,
    availableTo: row.available_to,
    minDelegates: row.min_delegates,
    maxDelegates: row.max_delegates,
    grading_method: row.grading_method,
    pass_mark: row.pass_mark,
    status: row.status,
    cancelled: row.status === 'cancelled',
    cancellation_reason_id: row.cancellation_reason_id,
    cancellation_reason: row.cancellation_reason,
    cancellation_notes: row.cancellation_notes,
    places_taken: row.places_taken,
    // A closed session (cancelled, completed, incomplete) has no place left to give.
    places_free: OPEN.includes(row.status) ? Math.max(0, row.max_delegates - row.places_taken) : 0,
    waitlist_count: Number(row.waitlist_count),
    check_in_code: maySeeCheckInCode(scope, rel) ? row.check_in_code : null,
    can: {
      edit: mayEdit(scope, rel),
      manage_delegates: mayManageDelegates(scope, rel),
      mark: mayMark(scope, rel),
      book: !myLive && mayBookSelf(scope, row, now),
    },
    my_booking:
      row.my_id !== null && row.my_status !== null ? { id: row.my_id, status: row.my_status } : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/**
 * The views of these sessions for the caller, in the order of `ids` (missing ids are skipped). The caller must
 * already have bounded `ids` by scope (sessionVisibleWhere / loadSessionForActor): this only presents.
 */
export async function loadSessionViews(
  ctx: Ctx,
  ids: readonly number[],
  o: { trx?: Trx } = {},
): Promise<TrainingSessionView[]> {
  if (ids.length === 0) return [];
  const scope = await sessionScope(ctx);
  const rows = await sessionViewQuery(o.trx ?? ctx.db, [...new Set(ids)], scope.userId).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  const now = ctx.clock();
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentSession(row, scope, now)] : [];
  });
}

export async function loadSessionView(ctx: Ctx, id: number, o: { trx?: Trx } = {}) {
  const [view] = await loadSessionViews(ctx, [id], o);
  if (!view) throw new Error(`training session ${id} vanished`);
  return view;
}

// --- Delegates ------------------------------------------------------------------------------------------------

function delegateViewQuery(db: Db | Trx, ids: number[]) {
  return db
    .selectFrom('session_delegates as d')
    .innerJoin('users as u', 'u.id', 'd.user_id')
    .innerJoin('entities as e', 'e.id', 'd.entity_id')
    .leftJoin('users as b', 'b.id', 'd.booked_by')
    .selectAll('d')
    .select([
      'u.uuid as user_uuid',
      'u.name as user_name',
      'e.slug as entity_slug',
      'e.name as entity_name',
      'b.uuid as booked_by_uuid',
      'b.name as booked_by_name',
      sql<number | null>`CASE WHEN d.status = 'waitlisted' THEN (
        SELECT count(*)::int + 1 FROM session_delegates w
        WHERE w.session_id = d.session_id AND w.status = 'waitlisted'
          AND (w.waitlisted_at, w.id) < (d.waitlisted_at, d.id)) END`.as('waitlist_position'),
    ])
    .where('d.id', 'in', ids);
}

export type DelegateViewRow = Awaited<ReturnType<ReturnType<typeof delegateViewQuery>['execute']>>[number];

export function presentDelegate(row: DelegateViewRow): DelegateView {
  return {
    id: row.id,
    session_id: row.session_id,
    user: { id: row.user_id, uuid: row.user_uuid, name: row.user_name },
    entity: { id: row.entity_id, slug: row.entity_slug, name: row.entity_name },
    status: row.status,
    context: row.context,
    order_id: row.order_id,
    waitlist_position: row.waitlist_position === null ? null : Number(row.waitlist_position),
    offer_expires_at: isoOrNull(row.offer_expires_at),
    attendance: row.attendance,
    passed: row.passed,
    score: row.score === null ? null : Number(row.score),
    notes: row.notes,
    checked_in_at: isoOrNull(row.checked_in_at),
    marked_at: isoOrNull(row.marked_at),
    result_id: row.result_id,
    booked_by:
      row.booked_by !== null && row.booked_by_uuid !== null
        ? { id: row.booked_by, uuid: row.booked_by_uuid, name: row.booked_by_name ?? '' }
        : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** The views of these delegates in the order of `ids` (one query). The caller bounds `ids` by scope. */
export async function loadDelegateViews(db: Db | Trx, ids: readonly number[]): Promise<DelegateView[]> {
  if (ids.length === 0) return [];
  const rows = await delegateViewQuery(db, [...new Set(ids)]).execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [presentDelegate(row)] : [];
  });
}

import type { DelegateView, TrainingSessionView } from '@cc/contracts';
import type { Actor } from '../http/context';
import { can } from '../http/context';
import type { DbOrTrx, DelegateListRow } from './delegate-queries';

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** contracts DelegateView of a delegate row (delegate-queries delegateColumns). */
export function presentDelegate(r: DelegateListRow): DelegateView {
  return {
    id: r.id,
    session_id: r.session_id,
    user: { id: r.user_id, uuid: r.user_uuid, name: r.user_name },
    entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
    status: r.status,
    context: r.context,
    order_id: r.order_id,
    waitlist_position: r.waitlist_position === null ? null : Number(r.waitlist_position),
    offer_expires_at: iso(r.offer_expires_at),
    attendance: r.attendance,
    passed: r.passed,
    score: r.score === null ? null : Number(r.score),
    notes: r.notes,
    checked_in_at: iso(r.checked_in_at),
    marked_at: iso(r.marked_at),
    result_id: r.result_id,
    booked_by:
      r.booked_by !== null && r.booked_by_uuid !== null && r.booked_by_name !== null
        ? { id: r.booked_by, uuid: r.booked_by_uuid, name: r.booked_by_name }
        : null,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

/** Who looks at the sessions: what `can` and `my_booking` are computed for. */
export interface Viewer {
  actor: Actor;
  inScope: (entityId: number) => boolean;
  now: Date;
}

const hhmm = (t: string) => t.slice(0, 5);

/**
 * contracts TrainingSessionView for sessions by id, in 4 queries whatever their number (sessions, days, waitlist
 * counts, the viewer's bookings). The bookings' own presenter for the lists this part serves (available training,
 * marketplace, orders, a user's bookings).
 */
export async function sessionViews(db: DbOrTrx, ids: number[], viewer: Viewer) {
  const out = new Map<number, TrainingSessionView>();
  if (!ids.length) return out;
  const unique = [...new Set(ids)];
  const [sessions, days, waitlists, mine] = await Promise.all([
    db
      .selectFrom('training_sessions as s')
      .innerJoin('entities as e', 'e.id', 's.entity_id')
      .innerJoin('contents as c', 'c.id', 's.content_id')
      .innerJoin('courses as co', 'co.id', 's.course_id')
      .leftJoin('users as t', 't.id', 's.trainer_id')
      .leftJoin('cancellation_reasons as cr', 'cr.id', 's.cancellation_reason_id')
      .selectAll('s')
      .select([
        'e.slug as entity_slug',
        'e.name as entity_name',
        'c.title as content_title',
        'co.title as course_title',
        't.uuid as trainer_uuid',
        't.name as trainer_name',
        'cr.name as cancellation_reason',
      ])
      .where('s.id', 'in', unique)
      .execute(),
    db
      .selectFrom('training_session_dates')
      .select(['session_id', 'date', 'start_time', 'end_time'])
      .where('session_id', 'in', unique)
      .orderBy('session_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('session_delegates')
      .select(['session_id', (eb) => eb.fn.countAll<number>().as('n')])
      .where('session_id', 'in', unique)
      .where('status', '=', 'waitlisted')
      .groupBy('session_id')
      .execute(),
    db
      .selectFrom('session_delegates')
      .select(['id', 'session_id', 'status'])
      .where('session_id', 'in', unique)
      .where('user_id', '=', viewer.actor.userId)
      .execute(),
  ]);
  const { actor } = viewer;
  for (const s of sessions) {
    const own = days.filter((d) => d.session_id === s.id);
    const dates = own.map((d) => ({
      date: String(d.date),
      startTime: hhmm(String(d.start_time)),
      endTime: hhmm(String(d.end_time)),
    }));
    const first = dates[0] ?? { date: '', startTime: '', endTime: '' };
    const owned = viewer.inScope(s.entity_id);
    const trainer = s.trainer_id !== null && s.trainer_id === actor.userId;
    const open = (s.status === 'scheduled' || s.status === 'confirmed') && new Date(s.starts_at) > viewer.now;
    const booking = mine.find((m) => m.session_id === s.id);
    const live = booking && booking.status !== 'declined' && booking.status !== 'deleted';
    const mark = trainer || (owned && can(actor, [128]));
    out.set(s.id, {
      id: s.id,
      uuid: s.uuid,
      entity: { id: s.entity_id, slug: s.entity_slug, name: s.entity_name },
      contentId: s.content_id,
      content: { id: s.content_id, title: s.content_title },
      course: { id: s.course_id, title: s.course_title },
      date: first.date,
      startTime: first.startTime,
      endTime: first.endTime,
      dates,
      starts_at: new Date(s.starts_at).toISOString(),
      ends_at: new Date(s.ends_at).toISOString(),
      trainerId: s.trainer_id,
      trainer:
        s.trainer_id !== null && s.trainer_uuid !== null && s.trainer_name !== null
          ? { id: s.trainer_id, uuid: s.trainer_uuid, name: s.trainer_name }
          : null,
      venue: s.venue,
      room: s.room,
      virtual: s.virtual,
      virtual_url: s.virtual_url,
      area: s.area,
      aim: s.aim,
      contentCovered: s.content_covered,
      learningOutcomes: s.learning_outcomes,
      availableTo: s.available_to,
      minDelegates: s.min_delegates,
      maxDelegates: s.max_delegates,
      grading_method: s.grading_method,
      pass_mark: s.pass_mark,
      status: s.status,
      cancelled: s.status === 'cancelled',
      cancellation_reason_id: s.cancellation_reason_id,
      cancellation_reason: s.cancellation_reason,
      cancellation_notes: s.cancellation_notes,
      places_taken: s.places_taken,
      places_free: Math.max(0, s.max_delegates - s.places_taken),
      waitlist_count: Number(waitlists.find((w) => w.session_id === s.id)?.n ?? 0),
      check_in_code: mark ? s.check_in_code : null,
      can: {
        edit: owned && can(actor, [11]),
        manage_delegates: owned && can(actor, [9, 109], 'any'),
        mark,
        book: open && !live && can(actor, [108]),
      },
      my_booking: booking ? { id: booking.id, status: booking.status } : null,
      created_at: new Date(s.created_at).toISOString(),
      updated_at: new Date(s.updated_at).toISOString(),
    });
  }
  return out;
}

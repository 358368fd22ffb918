import { BookingsPerm } from '@cc/contracts';
import type { Trx } from '../results/queries';
import { recordResult } from '../results/service';

/**
 * Demo data of face-to-face training (issue 15 "Seed the demo with a training provider's sessions, some full with a
 * waitlist"). Brightpath Training (the demo's training company, trainer Jordan Reid) gets its provider settings and
 * face-to-face content; Meadowbrook Care Group gets delegate settings, face-to-face content of its own courses, and
 * its managers the bookings permissions (9, 11). Sessions over the coming weeks:
 * - internal (run by the group's homes, trainer Jordan Reid): Moving and Handling at Oakfield House with Casey Lee
 *   (learner@demo.test) booked, another at Riverside Lodge, and Basic Life Support at Willow Court FULL: five
 *   accepted, one offered the place a removed delegate freed (claim by tomorrow), two on the waiting list;
 * - external (Brightpath's, on the marketplace): Dementia Awareness in two weeks (two Oakfield staff booked) and a
 *   two-day Dementia Awareness in four weeks;
 * - past: Moving and Handling at Oakfield House three weeks ago, completed, its attendance marked: the attended
 *   delegates' face2face results are recorded (they count in the matrix and compliance like any result).
 * places_taken is the seat count: it equals each session's delegates holding a place (pending, accepted, offered).
 * Nothing is e-mailed: invites go out when a booking changes, not for seeded rows.
 */
const DAY = 86_400_000;
const HOLDS = new Set(['pending', 'accepted', 'offered']);

/** The UTC instant of a Europe/London wall-clock time on a date (the offset of that day: GMT or BST). */
export function londonInstant(date: string, time: string): Date {
  const guess = new Date(`${date}T${time}:00Z`);
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(guess);
  const hh = Number(parts.find((p) => p.type === 'hour')?.value ?? 0);
  const mm = Number(parts.find((p) => p.type === 'minute')?.value ?? 0);
  const [h, m] = time.split(':').map(Number);
  const offsetMinutes = hh * 60 + mm - ((h ?? 0) * 60 + (m ?? 0));
  return new Date(guess.getTime() - offsetMinutes * 60_000);
}

const dateIn = (now: Date, days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(
    new Date(now.getTime() + days * DAY),
  );

interface DemoDelegate {
  userId: number;
  entityId: number;
  status: 'accepted' | 'offered' | 'waitlisted' | 'deleted';
  attendance?: 'attended' | 'partial' | 'no_show';
}

interface DemoSession {
  entityId: number;
  contentId: number;
  courseId: number;
  days: { in: number; start: string; end: string }[];
  venue: string;
  room?: string;
  max: number;
  min?: number;
  availableTo: 'internal' | 'external' | 'all';
  status?: 'scheduled' | 'completed';
  aim: string;
  code: string;
  delegates: DemoDelegate[];
}

export async function seedBookingsDemo(
  trx: Trx,
  o: { groupId: number; trainingId: number; homeIds: Record<string, number>; now: Date },
): Promise<void> {
  const { now } = o;
  await trx
    .insertInto('training_provider_settings')
    .values({
      entity_id: o.trainingId,
      delegate_auto_accept_period: 24,
      delegate_removal_cutoff_hours: 48,
      practical_min_delegates: 4,
      practical_max_delegates: 10,
      theory_min_delegates: 4,
      theory_max_delegates: 16,
      waitlist_claim_hours: 24,
      waitlist_cutoff_hours: 24,
      minimum_decision_hours: 72,
      under_minimum_action: 'cancel',
    })
    .execute();
  await trx
    .insertInto('delegate_settings')
    .values({
      entity_id: o.groupId,
      require_approval: false,
      notify_managers: true,
      send_calendar_invites: true,
    })
    .execute();
  // The group's managers run bookings for their homes.
  const managerTypes = await trx
    .selectFrom('entity_types')
    .select('id')
    .where('entity_id', '=', o.groupId)
    .where('name', '=', 'Manager')
    .execute();
  if (managerTypes.length)
    await trx
      .insertInto('type_permissions')
      .values(
        managerTypes.flatMap((t) =>
          [BookingsPerm.createBookings, BookingsPerm.editBooking].map((permission_id) => ({
            type_id: t.id,
            permission_id,
          })),
        ),
      )
      .onConflict((oc) => oc.columns(['type_id', 'permission_id']).doNothing())
      .execute();

  const trainer = await trx
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'trainer@demo.test')
    .executeTakeFirst();
  const courses = await trx
    .selectFrom('courses')
    .select(['id', 'title'])
    .where('title', 'in', ['Moving and Handling', 'Basic Life Support', 'Dementia Awareness'])
    .where((eb) => eb.or([eb('entity_id', '=', o.groupId), eb('entity_id', 'is', null)]))
    .execute();
  const courseId = (title: string) => courses.find((c) => c.title === title)?.id;
  const content = async (entityId: number, course: number | undefined, title: string) => {
    if (course === undefined) return undefined;
    const row = await trx
      .insertInto('contents')
      .values({
        entity_id: entityId,
        course_id: course,
        type: 'face2face',
        title,
        published: true,
        estimated_duration: 180,
        prerequisites: '[]',
      })
      .returning(['id', 'course_id'])
      .executeTakeFirstOrThrow();
    return row;
  };
  const moving = await content(o.groupId, courseId('Moving and Handling'), 'Moving and Handling practical');
  const bls = await content(o.groupId, courseId('Basic Life Support'), 'Basic Life Support practical');
  const dementia = await content(o.trainingId, courseId('Dementia Awareness'), 'Dementia Awareness workshop');
  if (!moving || !bls || !dementia) return;

  // Staff of each home, in a stable order: the learner first at Oakfield House.
  const staff = await trx
    .selectFrom('users')
    .select(['id', 'email', 'primary_entity_id'])
    .where('primary_entity_id', 'in', Object.values(o.homeIds))
    .where('super_admin', '=', false)
    .where('is_trainer', '=', false)
    .orderBy('id')
    .execute();
  const learner = staff.find((u) => u.email === 'learner@demo.test');
  // The generated staff (not the named logins and home managers).
  const people = (slug: string) =>
    staff.filter((u) => u.primary_entity_id === o.homeIds[slug] && u.email.endsWith('@meadowbrook.example'));
  const oakfield = o.homeIds['oakfield-house'] as number;
  const riverside = o.homeIds['riverside-lodge'] as number;
  const willow = o.homeIds['willow-court'] as number;
  const oak = people('oakfield-house');
  const river = people('riverside-lodge');
  const wil = people('willow-court');
  const pick = (list: typeof staff, from: number, n: number) => list.slice(from, from + n);
  const as = (list: typeof staff, status: DemoDelegate['status'], entityId: number): DemoDelegate[] =>
    list.map((u) => ({ userId: u.id, entityId, status }));

  const sessions: DemoSession[] = [
    {
      entityId: oakfield,
      contentId: moving.id,
      courseId: moving.course_id,
      days: [{ in: 5, start: '09:30', end: '12:30' }],
      venue: 'Oakfield House, 12 Oak Road, Leeds',
      room: 'Training room',
      max: 8,
      min: 3,
      availableTo: 'internal',
      aim: 'Safe moving and handling of residents: hoists, slide sheets and risk assessment, in practice.',
      code: 'OAK512',
      delegates: [
        ...(learner ? [{ userId: learner.id, entityId: oakfield, status: 'accepted' as const }] : []),
        ...as(pick(oak, 0, 3), 'accepted', oakfield),
      ],
    },
    {
      entityId: riverside,
      contentId: moving.id,
      courseId: moving.course_id,
      days: [{ in: 12, start: '13:30', end: '16:30' }],
      venue: 'Riverside Lodge, 3 River Walk, York',
      max: 10,
      min: 3,
      availableTo: 'internal',
      aim: 'Safe moving and handling of residents, in practice.',
      code: 'RIV127',
      delegates: as(pick(river, 0, 2), 'accepted', riverside),
    },
    {
      entityId: willow,
      contentId: bls.id,
      courseId: bls.course_id,
      days: [{ in: 9, start: '10:00', end: '13:00' }],
      venue: 'Willow Court, 48 Willow Street, Harrogate',
      room: 'Day lounge',
      max: 6,
      min: 4,
      availableTo: 'internal',
      aim: 'Basic life support and the use of a defibrillator.',
      code: 'WIL093',
      delegates: [
        ...as(pick(wil, 0, 5), 'accepted', willow),
        ...as(pick(wil, 5, 1), 'deleted', willow),
        ...as(pick(wil, 6, 1), 'offered', willow),
        ...as(pick(wil, 7, 2), 'waitlisted', willow),
      ],
    },
    {
      entityId: o.trainingId,
      contentId: dementia.id,
      courseId: dementia.course_id,
      days: [{ in: 14, start: '09:30', end: '16:00' }],
      venue: 'Brightpath Training, 7 College Street, Manchester',
      room: 'Room 2',
      max: 12,
      min: 4,
      availableTo: 'all',
      aim: 'Understanding dementia and person-centred care.',
      code: 'BRT140',
      delegates: as(pick(oak, 3, 2), 'accepted', oakfield),
    },
    {
      entityId: o.trainingId,
      contentId: dementia.id,
      courseId: dementia.course_id,
      days: [
        { in: 28, start: '09:30', end: '16:00' },
        { in: 29, start: '09:30', end: '13:00' },
      ],
      venue: 'Brightpath Training, 7 College Street, Manchester',
      room: 'Room 1',
      max: 15,
      min: 5,
      availableTo: 'external',
      aim: 'Dementia care in depth: communication, distress and end-of-life care, over two days.',
      code: 'BRT282',
      delegates: [],
    },
    {
      entityId: oakfield,
      contentId: moving.id,
      courseId: moving.course_id,
      days: [{ in: -21, start: '09:30', end: '12:30' }],
      venue: 'Oakfield House, 12 Oak Road, Leeds',
      room: 'Training room',
      max: 8,
      availableTo: 'internal',
      status: 'completed',
      aim: 'Safe moving and handling of residents, in practice.',
      code: 'OAK790',
      delegates: [
        ...pick(oak, 5, 3).map((u) => ({
          userId: u.id,
          entityId: oakfield,
          status: 'accepted' as const,
          attendance: 'attended' as const,
        })),
        ...pick(oak, 8, 1).map((u) => ({
          userId: u.id,
          entityId: oakfield,
          status: 'accepted' as const,
          attendance: 'no_show' as const,
        })),
      ],
    },
  ];

  for (const s of sessions) {
    const days = s.days.map((d) => {
      const date = dateIn(now, d.in);
      return {
        date,
        start: d.start,
        end: d.end,
        startsAt: londonInstant(date, d.start),
        endsAt: londonInstant(date, d.end),
      };
    });
    const first = days[0];
    const last = days[days.length - 1];
    if (!first || !last) continue;
    const taken = s.delegates.filter((d) => HOLDS.has(d.status)).length;
    const session = await trx
      .insertInto('training_sessions')
      .values({
        entity_id: s.entityId,
        content_id: s.contentId,
        course_id: s.courseId,
        trainer_id: trainer?.id ?? null,
        venue: s.venue,
        room: s.room ?? null,
        aim: s.aim,
        available_to: s.availableTo,
        min_delegates: s.min ?? 0,
        max_delegates: s.max,
        grading_method: 'attendance',
        status: s.status ?? 'scheduled',
        decided_at: s.status === 'completed' ? first.startsAt : null,
        places_taken: taken,
        check_in_code: s.code,
        starts_at: first.startsAt,
        ends_at: last.endsAt,
        created_by: trainer?.id ?? null,
        created_at: new Date(first.startsAt.getTime() - 30 * DAY),
        updated_at: new Date(Math.min(now.getTime(), first.startsAt.getTime())),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('training_session_dates')
      .values(
        days.map((d, position) => ({
          session_id: session.id,
          position,
          date: d.date,
          start_time: d.start,
          end_time: d.end,
          starts_at: d.startsAt,
          ends_at: d.endsAt,
        })),
      )
      .execute();
    let waited = 0;
    for (const d of s.delegates) {
      waited += 1;
      let resultId: number | null = null;
      if (d.attendance) {
        const result = await recordResult(
          trx,
          {
            userId: d.userId,
            entityId: d.entityId,
            courseId: s.courseId,
            contentId: s.contentId,
            type: 'face2face',
            passed: d.attendance === 'attended',
            score: null,
            completedAt: last.endsAt,
            attemptId: null,
            createdBy: trainer?.id ?? null,
          },
          now,
        );
        resultId = result.id;
      }
      await trx
        .insertInto('session_delegates')
        .values({
          session_id: session.id,
          user_id: d.userId,
          entity_id: d.entityId,
          context: 'online',
          status: d.status,
          waitlisted_at:
            d.status === 'waitlisted' || d.status === 'offered'
              ? new Date(now.getTime() - (10 - waited) * DAY)
              : null,
          offer_expires_at: d.status === 'offered' ? new Date(now.getTime() + 20 * 3_600_000) : null,
          attendance: d.attendance ?? null,
          passed: d.attendance ? d.attendance === 'attended' : null,
          marked_by: d.attendance ? (trainer?.id ?? null) : null,
          marked_at: d.attendance ? last.endsAt : null,
          checked_in_at: d.attendance === 'attended' ? first.startsAt : null,
          result_id: resultId,
          booked_by: trainer?.id ?? null,
          created_at: new Date(first.startsAt.getTime() - 20 * DAY),
          updated_at: new Date(Math.min(now.getTime(), first.startsAt.getTime())),
        })
        .execute();
    }
  }
}

import { randomInt } from 'node:crypto';
import {
  BookingsPerm,
  type CancelSessionBody,
  type CheckInBody,
  calendarDay,
  type DelegateView,
  BookingsMessages as M,
  type SessionDate,
  SessionMessages,
  type TrainingSessionBody,
  type TrainingSessionsQuery,
  type TrainingSessionUpdate,
  type TrainingSessionView,
} from '@cc/contracts';
import type { Updateable } from 'kysely';
import { visibleContentClause } from '../courses/visibility';
import type { Db } from '../db/connect';
import type { TrainingSessionsTable } from '../db/schema';
import { actorOf, authorize, type Ctx } from '../http/context';
import { type FieldErrors, forbidden, invalid, invalidField, notFound } from '../http/errors';
import type { Trx } from '../results/queries';
import { sessionChanged } from './effects';
import { loadDelegateViews, loadSessionView, loadSessionViews } from './presenters';
import { isStaffFor, loadSessionForActor, mayClose, mayEdit, type SessionRow, sessionScope } from './scope';
import {
  cancellationReasons,
  findCancellationReason,
  findFace2faceContent,
  findTrainer,
  insertSessionDates,
  listSessionIds,
  localInstants,
  sessionDays,
  updateSession,
} from './session-queries';
import { trainerScope } from './trainers';
import { offerFreedPlaces } from './waitlist';

/**
 * Training sessions (issue 15; contracts bookings.ts): list, create, edit, cancel, complete, check in. Who may do
 * what is scope.ts; every change delegates see raises the session's `sequence` (the iCal SEQUENCE) and goes to
 * effects.sessionChanged in the same transaction.
 */

/** Letters and digits a person reads off a screen without confusing them (no 0/O, 1/I/L). */
const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export function newCheckInCode(): string {
  let code = '';
  for (let i = 0; i < 6; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  return code;
}

/** The Europe/London calendar date of an instant ('YYYY-MM-DD'). */
export const londonDate = (at: Date): string => calendarDay(at);

/**
 * What the services read through ctx.db (memoised per request), resolved BEFORE a transaction opens: the embedded
 * engine has one connection, so a ctx.db query inside a transaction would wait for it forever.
 */
async function prepare(ctx: Ctx) {
  await sessionScope(ctx);
  await visibleContentClause(ctx, { alias: 'ct' });
}

export async function listCancellationReasons(ctx: Ctx) {
  actorOf(ctx);
  return cancellationReasons(ctx.db);
}

/**
 * GET /training-sessions: staff (scope.ts) see their organisations' sessions (plus their own as trainer or
 * delegate); anyone may ask for `mine` (their sessions as trainer). Without `deep=0` the staff view covers the whole
 * scope; `deep=0` narrows it to the acting-as (or primary) entity.
 */
export async function listSessions(
  ctx: Ctx,
  q: TrainingSessionsQuery,
): Promise<{ data: TrainingSessionView[]; total: number }> {
  const scope = await sessionScope(ctx);
  const staff = scope.staffEntityIds === null || scope.staffEntityIds.length > 0;
  if (!staff && !q.mine) throw forbidden();
  let entityIds: number[] | null | undefined;
  if (q.deep === false && staff && !q.mine) entityIds = [scope.baseId];
  const { ids, total } = await listSessionIds(ctx.db, scope, { ...q, entityIds });
  return { data: await loadSessionViews(ctx, ids), total };
}

export async function getSession(ctx: Ctx, id: number): Promise<TrainingSessionView> {
  await loadSessionForActor(ctx, id, { bookable: true });
  return loadSessionView(ctx, id);
}

const daysOf = (s: { date: string; startTime: string; endTime: string; additionalDates: SessionDate[] }) => [
  { date: s.date, startTime: s.startTime, endTime: s.endTime },
  ...s.additionalDates,
];

function dayErrors(days: SessionDate[]): FieldErrors {
  const errors: FieldErrors = {};
  days.forEach((d, i) => {
    if (d.endTime <= d.startTime)
      errors[i === 0 ? 'endTime' : `additionalDates.${i - 1}.endTime`] = [M.endBeforeStart];
  });
  return errors;
}

interface Checked {
  entityId: number;
  courseId: number;
}

/** The checks shared by create and edit, on the merged values; only the fields in `check` are looked up. */
async function checkSession(
  ctx: Ctx,
  db: Db | Trx,
  v: TrainingSessionBody & { entity_id: number },
  check: { content: boolean; trainer: boolean; entity: boolean; days: boolean },
  current: { course_id: number } | null,
): Promise<Checked> {
  const scope = await sessionScope(ctx, db);
  const errors: FieldErrors = {};
  if (check.entity && !isStaffFor(scope, v.entity_id))
    errors.entity_id = [SessionMessages.chooseOrganisation];
  let courseId = current?.course_id ?? 0;
  if (check.content) {
    // The clause is memoised per request: the service resolves it before opening its transaction.
    const content = await findFace2faceContent(
      db,
      v.contentId,
      await visibleContentClause(ctx, { alias: 'ct' }),
    );
    if (content) courseId = content.course_id;
    else errors.contentId = [M.notFace2face];
  }
  if (check.trainer && v.trainerId !== null) {
    // Own organisation's trainers and those of the training companies it books with (trainers.ts, issue 33 §3).
    const trainer = await findTrainer(db, v.trainerId, (await trainerScope(ctx, db)).entityIds);
    if (!trainer) errors.trainerId = [M.notATrainer];
  }
  if (v.minDelegates > v.maxDelegates) errors.minDelegates = [M.minAboveMax];
  if (v.grading_method === 'score' && (v.pass_mark === null || v.pass_mark === undefined))
    errors.pass_mark = [SessionMessages.passMarkRequired];
  if (check.days) Object.assign(errors, dayErrors(daysOf(v)));
  if (Object.keys(errors).length) throw invalid(errors);
  return { entityId: v.entity_id, courseId };
}

function columnsOf(v: TrainingSessionBody) {
  return {
    content_id: v.contentId,
    trainer_id: v.trainerId,
    venue: v.venue ?? null,
    room: v.room ?? null,
    virtual: v.virtual,
    virtual_url: v.virtual_url ?? null,
    area: v.area ?? null,
    aim: v.aim ?? null,
    content_covered: v.contentCovered ?? null,
    learning_outcomes: v.learningOutcomes ?? null,
    available_to: v.availableTo,
    min_delegates: v.minDelegates,
    max_delegates: v.maxDelegates,
    grading_method: v.grading_method,
    pass_mark: v.pass_mark ?? null,
  };
}

/** POST /training-sessions (9): owned by an organisation the actor manages bookings for. */
export async function createSession(ctx: Ctx, body: TrainingSessionBody): Promise<TrainingSessionView> {
  const actor = authorize(ctx, [BookingsPerm.createBookings]);
  const scope = await sessionScope(ctx);
  if (scope.staffEntityIds !== null && scope.staffEntityIds.length === 0) throw forbidden();
  const entityId = body.entity_id ?? actor.actingAs?.id ?? actor.primaryEntity.id;
  const { courseId } = await checkSession(
    ctx,
    ctx.db,
    { ...body, entity_id: entityId },
    { content: true, trainer: true, entity: true, days: true },
    null,
  );
  const days = daysOf(body);
  const now = ctx.clock();
  const id = await ctx.db.transaction().execute(async (trx) => {
    const instants = await localInstants(trx, days);
    const session = await trx
      .insertInto('training_sessions')
      .values({
        ...columnsOf(body),
        entity_id: entityId,
        course_id: courseId,
        check_in_code: newCheckInCode(),
        starts_at: new Date(Math.min(...instants.map((i) => i.starts_at.getTime()))),
        ends_at: new Date(Math.max(...instants.map((i) => i.ends_at.getTime()))),
        created_by: actor.userId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await insertSessionDates(trx, session.id, days, instants);
    return session.id;
  });
  return loadSessionView(ctx, id);
}

/** The session as a full body, for merging a PATCH onto it. */
function bodyOf(s: SessionRow, days: SessionDate[]): TrainingSessionBody & { entity_id: number } {
  const [first, ...rest] = days;
  return {
    contentId: s.content_id,
    entity_id: s.entity_id,
    date: first?.date ?? '',
    startTime: first?.startTime ?? '',
    endTime: first?.endTime ?? '',
    additionalDates: rest,
    trainerId: s.trainer_id,
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
  };
}

/** Columns delegates see in their invite and booking: a change to one raises the iCal SEQUENCE. */
const SEEN_BY_DELEGATES = [
  'content_id',
  'trainer_id',
  'venue',
  'room',
  'virtual',
  'virtual_url',
  'area',
  'aim',
  'content_covered',
  'learning_outcomes',
] as const;

const DAY_FIELDS = ['date', 'startTime', 'endTime', 'additionalDates'] as const;

/**
 * PATCH /training-sessions/{id} (11 in scope): only the fields sent. The row is locked for the whole change, so the
 * maximum is compared with the places taken at that moment; raising it offers the freed places to the waitlist.
 */
export async function patchSession(
  ctx: Ctx,
  id: number,
  patch: TrainingSessionUpdate,
): Promise<TrainingSessionView> {
  const now = ctx.clock();
  await prepare(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    const { session, scope, rel } = await loadSessionForActor(ctx, id, { trx, forUpdate: true });
    if (!mayEdit(scope, rel)) throw forbidden();
    if (session.status === 'cancelled') throw invalidField('status', M.sessionClosed);
    const days = await sessionDays(trx, id);
    const before = bodyOf(session, days);
    const sent = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
    const merged = { ...before, ...sent } as TrainingSessionBody & { entity_id: number };
    const daysChanged = DAY_FIELDS.some((k) => k in sent);
    const checked = await checkSession(
      ctx,
      trx,
      merged,
      {
        content: 'contentId' in sent && merged.contentId !== before.contentId,
        trainer: 'trainerId' in sent && merged.trainerId !== before.trainerId,
        entity: 'entity_id' in sent && merged.entity_id !== before.entity_id,
        days: daysChanged,
      },
      session,
    );
    if (merged.maxDelegates < session.places_taken) throw invalidField('maxDelegates', M.maxBelowTaken);

    const next = { ...columnsOf(merged), entity_id: merged.entity_id, course_id: checked.courseId };
    const values: Updateable<TrainingSessionsTable> = {};
    for (const [k, v] of Object.entries(next) as [keyof typeof next, unknown][])
      if (v !== (session as Record<string, unknown>)[k]) (values as Record<string, unknown>)[k] = v;
    let seen = SEEN_BY_DELEGATES.some((k) => k in values);
    if (daysChanged) {
      const newDays = daysOf(merged);
      if (JSON.stringify(newDays) !== JSON.stringify(days)) {
        const instants = await localInstants(trx, newDays);
        await insertSessionDates(trx, id, newDays, instants);
        values.starts_at = new Date(Math.min(...instants.map((i) => i.starts_at.getTime())));
        values.ends_at = new Date(Math.max(...instants.map((i) => i.ends_at.getTime())));
        seen = true;
      }
    }
    if (seen) values.sequence = session.sequence + 1;
    if (Object.keys(values).length === 0 && !('entity_id' in sent)) return;
    await updateSession(trx, id, values, now);
    if (merged.maxDelegates > session.max_delegates) await offerFreedPlaces(trx, id, now);
    if (seen) await sessionChanged(trx, id, 'updated', now);
  });
  return loadSessionView(ctx, id);
}

/**
 * POST /training-sessions/{id}/cancel (11): cancelled with a reason; everyone holding a place or waitlisted is told
 * (effects), the places are released (places_taken 0). Delegate rows and orders keep their rows for the record.
 */
export async function cancelSession(
  ctx: Ctx,
  id: number,
  body: CancelSessionBody,
): Promise<TrainingSessionView> {
  const now = ctx.clock();
  await sessionScope(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    const { session, scope, rel } = await loadSessionForActor(ctx, id, { trx, forUpdate: true });
    if (!mayEdit(scope, rel)) throw forbidden();
    if (!(await findCancellationReason(trx, body.cancellation_reason_id)))
      throw invalidField('cancellation_reason_id', SessionMessages.chooseReason);
    if (session.status !== 'scheduled' && session.status !== 'confirmed')
      throw invalidField('status', M.sessionClosed);
    await updateSession(
      trx,
      id,
      {
        status: 'cancelled',
        cancellation_reason_id: body.cancellation_reason_id,
        cancellation_notes: body.cancellation_notes ?? null,
        cancelled_at: now,
        places_taken: 0,
        sequence: session.sequence + 1,
      },
      now,
    );
    await sessionChanged(trx, id, 'cancelled', now);
  });
  return loadSessionView(ctx, id);
}

/** POST /training-sessions/{id}/complete | /incomplete (11 in scope, or the session's trainer). */
export async function closeSession(
  ctx: Ctx,
  id: number,
  status: 'completed' | 'incomplete',
): Promise<TrainingSessionView> {
  const now = ctx.clock();
  await sessionScope(ctx);
  await ctx.db.transaction().execute(async (trx) => {
    const { session, scope, rel } = await loadSessionForActor(ctx, id, { trx, forUpdate: true });
    if (!mayClose(scope, rel)) throw forbidden();
    if (session.status === 'cancelled') throw invalidField('status', M.sessionClosed);
    if (session.status === status) return;
    await updateSession(trx, id, { status }, now);
    await sessionChanged(trx, id, status, now);
  });
  return loadSessionView(ctx, id);
}

/**
 * POST /training-sessions/{id}/check-in: the caller's own accepted booking, on one of the session's days
 * (Europe/London), with the code the trainer shows. Checking in twice keeps the first time.
 */
export async function checkIn(ctx: Ctx, id: number, body: CheckInBody): Promise<DelegateView> {
  const actor = actorOf(ctx);
  const now = ctx.clock();
  await sessionScope(ctx);
  const delegateId = await ctx.db.transaction().execute(async (trx: Trx) => {
    const { session } = await loadSessionForActor(ctx, id, { trx });
    const own = await trx
      .selectFrom('session_delegates')
      .select(['id', 'status'])
      .where('session_id', '=', id)
      .where('user_id', '=', actor.userId)
      .forUpdate()
      .executeTakeFirst();
    if (own?.status !== 'accepted') throw notFound();
    if (session.status === 'cancelled') throw invalidField('code', M.sessionClosed);
    const today = londonDate(now);
    const onDay = await trx
      .selectFrom('training_session_dates')
      .select('id')
      .where('session_id', '=', id)
      .where('date', '=', today)
      .executeTakeFirst();
    if (!onDay) throw invalidField('code', M.checkInClosed);
    if (body.code.toUpperCase() !== session.check_in_code.toUpperCase())
      throw invalidField('code', M.wrongCheckInCode);
    await trx
      .updateTable('session_delegates')
      .set((eb) => ({ checked_in_at: eb.fn.coalesce('checked_in_at', eb.val(now)), updated_at: now }))
      .where('id', '=', own.id)
      .execute();
    return own.id;
  });
  const [view] = await loadDelegateViews(ctx.db, [delegateId]);
  if (!view) throw notFound();
  return view;
}

import {
  type AddDelegatesBody,
  BookingsMessages,
  type BookSessionBody,
  type DelegateStatus,
  type DelegatesQuery,
  type DelegateView,
  BookingsPerm as P,
} from '@cc/contracts';
import { type EntityScope, entityScope, inScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { type Actor, actorOf, type Ctx, can } from '../http/context';
import { conflict, forbidden, HttpError, invalidField, notFound } from '../http/errors';
import type { Trx } from '../results/queries';
import { releasePlaces, takePlaces } from './capacity';
import {
  aEntitiesOf,
  canViewExternal,
  type DbOrTrx,
  type DelegateRow,
  type DelegateUser,
  delegatesPage,
  findDelegate,
  findSessionFacts,
  findUsers,
  insertDelegate,
  lockDelegate,
  lockDelegateOf,
  type SessionFacts,
  sessionHasDelegatesIn,
  setDelegateStatus,
} from './delegate-queries';
import { type DelegateEvent, delegateChanged } from './effects';
import { loadDelegateViews } from './presenters';
import { isStaffFor, sessionScope } from './scope';
import { appliedDelegateSettingsOf } from './settings';
import { offerFreedPlaces } from './waitlist';

/**
 * Delegates of training sessions (issue 15; contracts bookings.ts "Delegates"): adding, booking, the provider's and
 * the manager's decisions, restoring, claiming an offered place and removal.
 *
 * Race safety: every change runs in one transaction that first locks the delegate's row (FOR UPDATE, or the row it
 * just inserted with ON CONFLICT DO NOTHING), re-reads its status under the lock and only then moves places through
 * capacity.ts's guarded UPDATE. So two concurrent actions on one delegate run one after the other (the second sees
 * the first's status and answers 409), and concurrent bookings of one session can never pass max_delegates. Locks are
 * always taken in the order order row → delegate rows → session row, which keeps concurrent requests free of
 * deadlocks (the waitlist only takes delegate rows with SKIP LOCKED).
 */
export const DelegateErrors = {
  outOfScope: 'A person you chose cannot be booked by you.',
  stateChanged: 'This booking has changed meanwhile: refresh and try again.',
  notOffered: 'There is no place offered to you on this session.',
  selfCancelOff: 'Your organisation does not let you cancel your own bookings: ask your manager.',
} as const;

const HOUR_MS = 3_600_000;
const DEAD: readonly DelegateStatus[] = ['declined', 'deleted'];
const HOLDS: readonly DelegateStatus[] = ['pending', 'accepted', 'offered'];
export const isLive = (status: DelegateStatus) => !DEAD.includes(status);
export const holdsPlace = (status: DelegateStatus) => HOLDS.includes(status);

export const transaction = <T>(ctx: Ctx, work: (trx: Trx) => Promise<T>) =>
  ctx.db.transaction().execute(work);

export function isOpen(s: Pick<SessionFacts, 'status' | 'starts_at'>, now: Date): boolean {
  return (s.status === 'scheduled' || s.status === 'confirmed') && s.starts_at.getTime() > now.getTime();
}
const closed = () => new HttpError(422, BookingsMessages.sessionClosed);
/** Scheduled or confirmed (started or not): the delegates of a closed session no longer change. */
export const openStatus = (s: Pick<SessionFacts, 'status'>) =>
  s.status === 'scheduled' || s.status === 'confirmed';

/** Inside the provider's removal cut-off (delegate_removal_cutoff_hours before the start). */
export const pastRemovalCutoff = (s: SessionFacts, now: Date) =>
  now.getTime() >= s.starts_at.getTime() - s.removalCutoffHours * HOUR_MS;

// --- Who sees what -------------------------------------------------------------------------------------------

export interface SessionAccess {
  actor: Actor;
  scope: EntityScope;
  s: SessionFacts;
  /** The actor is staff for the session (scope.ts: owner in scope, a staff permission, the bookings area on). */
  owned: boolean;
  trainer: boolean;
}

/**
 * A training company's session on the marketplace, for an actor whose a_entity may book externally. Only a company a
 * super admin approved is on it (issue 29 §7): an unapproved one's sessions are its own, as if internal.
 */
export async function onMarketplaceFor(db: DbOrTrx, s: SessionFacts, aEntityId: number): Promise<boolean> {
  return (
    s.is_training_company &&
    s.training_company_status === 'approved' &&
    s.available_to !== 'internal' &&
    (await canViewExternal(db, aEntityId))
  );
}

/** The session and what the actor is to it; 404 when missing. */
export async function sessionAccess(ctx: Ctx, sessionId: number): Promise<SessionAccess> {
  const actor = actorOf(ctx);
  const s = await findSessionFacts(ctx.db, sessionId);
  if (!s) throw notFound();
  const [scope, staff] = await Promise.all([entityScope(ctx), sessionScope(ctx)]);
  return { actor, scope, s, owned: isStaffFor(staff, s.entity_id), trainer: s.trainer_id === actor.userId };
}

/**
 * Whether the actor may know the session exists: it is theirs (owner in scope, or they train it), it is on their
 * marketplace, they or people in their scope are booked on it, or they could book it (available training).
 * Everything else is a 404.
 */
export async function assertSessionSeen(ctx: Ctx, a: SessionAccess): Promise<void> {
  if (a.owned || a.trainer) return;
  if (await onMarketplaceFor(ctx.db, a.s, a.actor.aEntityId)) return;
  const accessible = a.scope.accessible === 'all' ? 'all' : [...a.scope.accessible];
  if (await sessionHasDelegatesIn(ctx.db, a.s.id, accessible)) return;
  const own = await ctx.db
    .selectFrom('session_delegates')
    .select('id')
    .where('session_id', '=', a.s.id)
    .where('user_id', '=', a.actor.userId)
    .executeTakeFirst();
  if (own) return;
  if (await bookableFor(ctx.db, a.s, { primary_entity_id: a.actor.primaryEntity.id })) return;
  throw notFound();
}

/**
 * Whether `user` may book the session (available training): an internal/all session owned inside the user's
 * organisation tree (their a_entity's), or an external/all session of a training company when the user's a_entity
 * can view external bookings.
 */
export async function bookableFor(db: DbOrTrx, s: SessionFacts, user: { primary_entity_id: number }) {
  const aEntities = await aEntitiesOf(db, [user.primary_entity_id]);
  const aEntityId = aEntities.get(user.primary_entity_id) ?? user.primary_entity_id;
  if (s.available_to !== 'external' && (await subtreeIds(db, aEntityId)).includes(s.entity_id)) return true;
  return onMarketplaceFor(db, s, aEntityId);
}

async function viewOf(db: DbOrTrx, id: number): Promise<DelegateView> {
  const [view] = await loadDelegateViews(db, [id]);
  if (!view) throw notFound();
  return view;
}

// --- Placing a delegate ------------------------------------------------------------------------------------------

type Placement =
  /** Added by staff (9, 109) or restored: a place (accepted) or the waitlist. */
  | { kind: 'staff' }
  /** Booked (108, 118) or approved by the manager: pending/accepted by the provider's rule, or the waitlist. */
  | { kind: 'book'; approval: boolean }
  /** Named on a training order: the order's place, accepted. */
  | { kind: 'order'; orderId: number };

/** Pending when a training company with an auto-accept period books someone of another organisation. */
async function waitsForProvider(trx: Trx, s: SessionFacts, delegateEntityId: number): Promise<boolean> {
  if (!s.is_training_company || s.autoAcceptHours <= 0) return false;
  const tops = await aEntitiesOf(trx, [s.entity_id, delegateEntityId]);
  return tops.get(s.entity_id) !== tops.get(delegateEntityId);
}

/**
 * Gives a locked row (new or reused) its status: a request, a place, or the waitlist. The place comes from the
 * guarded UPDATE (capacity.ts): when it matches nothing the session is full and the delegate waits.
 */
async function place(
  trx: Trx,
  s: SessionFacts,
  row: DelegateRow,
  how: Placement,
  now: Date,
  reused: boolean,
  override?: DelegateEvent,
): Promise<DelegateStatus> {
  let status: DelegateStatus;
  let event: DelegateEvent;
  if (how.kind === 'order') {
    status = 'accepted';
    event = 'booked';
  } else if (how.kind === 'book' && how.approval) {
    status = 'requested';
    event = 'requested';
  } else if (await takePlaces(trx, s.id, 1)) {
    status = how.kind === 'book' && (await waitsForProvider(trx, s, row.entity_id)) ? 'pending' : 'accepted';
    event = 'booked';
  } else {
    status = 'waitlisted';
    event = 'waitlisted';
  }
  await setDelegateStatus(trx, row.id, {
    status,
    now,
    waitlistedAt: now,
    fresh: reused,
    ...(how.kind === 'order' ? { orderId: how.orderId } : reused ? { orderId: null } : {}),
  });
  await delegateChanged(trx, row.id, override ?? event, now);
  return status;
}

/**
 * The rows to place for these people, locked: a new row (inserted provisional) or a declined/deleted one to reuse.
 * People already on the session (any live status) are left out. Ids are taken in ascending order, so two requests
 * adding overlapping lists lock them in the same order.
 */
async function rowsToPlace(
  trx: Trx,
  s: SessionFacts,
  people: DelegateUser[],
  o: { context: 'download' | 'online'; bookedBy: number; now: Date; orderId: number | null },
) {
  const out: { row: DelegateRow; reused: boolean }[] = [];
  for (const person of [...people].sort((a, b) => a.id - b.id)) {
    const existing = await lockDelegateOf(trx, s.id, person.id);
    if (existing) {
      if (isLive(existing.status)) continue;
      await trx
        .updateTable('session_delegates')
        .set({ context: o.context, booked_by: o.bookedBy, entity_id: person.primary_entity_id })
        .where('id', '=', existing.id)
        .execute();
      out.push({ row: { ...existing, entity_id: person.primary_entity_id }, reused: true });
      continue;
    }
    const inserted = await insertDelegate(trx, {
      sessionId: s.id,
      userId: person.id,
      entityId: person.primary_entity_id,
      context: o.context,
      bookedBy: o.bookedBy,
      orderId: o.orderId,
      now: o.now,
    });
    // Another transaction inserted them meanwhile (and committed): they are on the session, so skip them.
    if (inserted) out.push({ row: inserted, reused: false });
  }
  return out;
}

/** People by id, every one in the actor's scope, or a 422 on `users` refusing the whole list. */
export async function peopleInScope(
  ctx: Ctx,
  scope: EntityScope,
  ids: number[],
  field = 'users',
): Promise<DelegateUser[]> {
  const unique = [...new Set(ids)];
  const people = await findUsers(ctx.db, unique);
  if (people.length !== unique.length || people.some((p) => !inScope(scope, p.primary_entity_id)))
    throw invalidField(field, DelegateErrors.outOfScope);
  return people;
}

/** Locks the order and names `count` more delegates on it; 422 when its unnamed places are too few. */
export async function nameOnOrder(trx: Trx, orderId: number, count: number, now: Date) {
  if (count === 0) return;
  const updated = await trx
    .updateTable('training_orders')
    .set((eb) => ({ named: eb('named', '+', count), updated_at: now }))
    .where('id', '=', orderId)
    .where('status', '=', 'placed')
    .where((eb) => eb(eb('named', '+', count), '<=', eb.ref('places')))
    .returning('id')
    .executeTakeFirst();
  if (!updated) throw invalidField('users', BookingsMessages.notEnoughPlaces);
}

/**
 * Adds people to a session inside the caller's transaction (POST /training-sessions/{id}/delegates, training orders).
 * Returns the ids placed.
 */
export async function addPeople(
  trx: Trx,
  s: SessionFacts,
  people: DelegateUser[],
  o: {
    context: 'download' | 'online';
    bookedBy: number;
    now: Date;
    orderId: number | null;
    /** A new order's places, taken after the delegates' rows are locked (the lock order above). */
    reserve?: number;
    /**
     * User ids in the order places are given (gap-booking.ts: most overdue first); rows are still locked in id
     * order, only the placing (and the waiting list's order) follows this. Without it, or for ids not in it, the id
     * order.
     */
    priority?: readonly number[];
  },
): Promise<number[]> {
  const locked = await rowsToPlace(trx, s, people, o);
  const rank = new Map(o.priority?.map((id, i) => [id, i]));
  const at = (userId: number) => rank.get(userId) ?? Number.MAX_SAFE_INTEGER;
  const rows = o.priority ? [...locked].sort((a, b) => at(a.row.user_id) - at(b.row.user_id)) : locked;
  if (o.reserve !== undefined && !(await takePlaces(trx, s.id, o.reserve)))
    throw invalidField('places', BookingsMessages.notEnoughPlaces);
  if (o.orderId !== null) await nameOnOrder(trx, o.orderId, rows.length, o.now);
  for (const [i, { row, reused }] of rows.entries())
    await place(
      trx,
      s,
      row,
      o.orderId !== null ? { kind: 'order', orderId: o.orderId } : { kind: 'staff' },
      // The waitlist's order is waitlisted_at, then id: with a priority, one millisecond apart keeps its order.
      o.priority ? new Date(o.now.getTime() + i) : o.now,
      reused,
    );
  return rows.map((r) => r.row.id);
}

/**
 * POST /training-sessions/{id}/delegates: 9 on the actor's organisations' sessions, 109 on their training company's;
 * with `order_id`, 9 on one's own organisation's order of that session (the places come out of the order).
 */
export async function addDelegates(
  ctx: Ctx,
  sessionId: number,
  body: AddDelegatesBody,
): Promise<DelegateView[]> {
  const a = await sessionAccess(ctx, sessionId);
  const { actor, scope, s } = a;
  if (body.order_id !== undefined) {
    const order = await ctx.db
      .selectFrom('training_orders')
      .select(['id', 'entity_id', 'session_id', 'status'])
      .where('id', '=', body.order_id)
      .executeTakeFirst();
    if (!order || order.session_id !== s.id || !inScope(scope, order.entity_id))
      throw invalidField('order_id', 'Choose a training order of this session.');
    if (!can(actor, [P.createBookings])) throw forbidden();
  } else {
    await assertSessionSeen(ctx, a);
    const allowed =
      a.owned &&
      (can(actor, [P.createBookings]) || (s.is_training_company && can(actor, [P.trainingProviderBookings])));
    if (!allowed) throw forbidden();
  }
  const people = await peopleInScope(ctx, scope, body.users);
  const now = ctx.clock();
  if (!isOpen(s, now)) throw closed();
  const ids = await transaction(ctx, (trx) =>
    addPeople(trx, s, people, {
      context: body.context,
      bookedBy: actor.userId,
      now,
      orderId: body.order_id ?? null,
    }),
  );
  return loadDelegateViews(ctx.db, ids);
}

/** POST /training-sessions/{id}/book: 108 for oneself, 118 for someone in scope (`user_id`). */
export async function bookSession(ctx: Ctx, sessionId: number, body: BookSessionBody) {
  const actor = actorOf(ctx);
  const self = body.user_id === undefined || body.user_id === actor.userId;
  if (!can(actor, [self ? P.ownBookings : P.requestBookings])) throw forbidden();
  const person = self
    ? (await findUsers(ctx.db, [actor.userId]))[0]
    : (await peopleInScope(ctx, await entityScope(ctx), [body.user_id as number], 'user_id'))[0];
  if (!person) throw notFound();
  const s = await findSessionFacts(ctx.db, sessionId);
  if (!s || !(await bookableFor(ctx.db, s, person))) throw notFound();
  const now = ctx.clock();
  if (!isOpen(s, now)) throw closed();
  const approval = (await appliedDelegateSettingsOf(ctx.db, person.primary_entity_id)).require_approval;
  const { id, status } = await transaction(ctx, async (trx) => {
    const existing = await lockDelegateOf(trx, s.id, person.id);
    if (existing && isLive(existing.status)) throw conflict(BookingsMessages.alreadyBooked);
    const row =
      existing ??
      (await insertDelegate(trx, {
        sessionId: s.id,
        userId: person.id,
        entityId: person.primary_entity_id,
        context: body.context,
        bookedBy: actor.userId,
        orderId: null,
        now,
      }));
    if (!row) throw conflict(BookingsMessages.alreadyBooked);
    if (existing)
      await trx
        .updateTable('session_delegates')
        .set({ context: body.context, booked_by: actor.userId, entity_id: person.primary_entity_id })
        .where('id', '=', existing.id)
        .execute();
    const placed = await place(
      trx,
      s,
      { ...row, entity_id: person.primary_entity_id },
      { kind: 'book', approval },
      now,
      !!existing,
    );
    return { id: row.id, status: placed };
  });
  const message =
    status === 'requested'
      ? BookingsMessages.requested
      : status === 'waitlisted'
        ? BookingsMessages.waitlisted
        : BookingsMessages.booked;
  return { data: await viewOf(ctx.db, id), message };
}

/** GET /training-sessions/{id}/delegates: 9/11/109/123/128 or its trainer; others' sessions show only one's staff. */
export async function listDelegates(ctx: Ctx, sessionId: number, query: DelegatesQuery) {
  const a = await sessionAccess(ctx, sessionId);
  await assertSessionSeen(ctx, a);
  const perms = [
    P.createBookings,
    P.editBooking,
    P.trainingProviderBookings,
    P.removeDelegates,
    P.markDelegates,
  ];
  let bound: readonly number[] | null = null;
  if (a.owned || a.trainer) {
    if (!a.trainer && !can(a.actor, perms, 'any')) throw forbidden();
  } else {
    if (!can(a.actor, [P.createBookings, P.editBooking], 'any')) throw forbidden();
    bound = a.scope.accessible === 'all' ? null : [...a.scope.accessible];
  }
  const { rows, total } = await delegatesPage(ctx.db, sessionId, bound, query);
  return {
    data: await loadDelegateViews(
      ctx.db,
      rows.map((r) => r.id),
    ),
    total,
  };
}

// --- Actions on one delegate ----------------------------------------------------------------------------------------

interface DelegateAccess extends SessionAccess {
  d: NonNullable<Awaited<ReturnType<typeof findDelegate>>>;
  /** The delegate belongs to one of the actor's organisations (their manager's side). */
  managed: boolean;
  self: boolean;
}

/** The delegate and what the actor is to it; 404 unless the actor may see it (own, in scope, the session's). */
async function delegateAccess(ctx: Ctx, delegateId: number): Promise<DelegateAccess> {
  const d = await findDelegate(ctx.db, delegateId);
  if (!d) throw notFound();
  const a = await sessionAccess(ctx, d.session_id);
  const managed = inScope(a.scope, d.entity_id);
  const self = d.user_id === a.actor.userId;
  if (!a.owned && !a.trainer && !managed && !self) throw notFound();
  return { ...a, d, managed, self };
}

/** Runs a change on the locked delegate; 409 when its status is no longer one the action applies to. */
async function change(
  ctx: Ctx,
  delegateId: number,
  from: readonly DelegateStatus[],
  work: (trx: Trx, d: DelegateRow, now: Date) => Promise<void>,
): Promise<DelegateView> {
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const d = await lockDelegate(trx, delegateId);
    if (!d) throw notFound();
    if (!from.includes(d.status)) throw conflict(DelegateErrors.stateChanged);
    await work(trx, d, now);
  });
  return viewOf(ctx.db, delegateId);
}

/** A delegate leaves their place: the place goes back (or, named on an order, back to the order) and is offered on. */
export async function freePlaceOf(trx: Trx, d: DelegateRow, now: Date): Promise<void> {
  if (!holdsPlace(d.status)) return;
  if (d.order_id !== null) {
    // The ordering organisation bought the place: it returns to the order's unnamed places, to name someone else.
    await trx
      .updateTable('training_orders')
      .set((eb) => ({ named: eb('named', '-', 1), updated_at: now }))
      .where('id', '=', d.order_id)
      .where('named', '>', 0)
      .execute();
    return;
  }
  await releasePlaces(trx, d.session_id, 1);
  await offerFreedPlaces(trx, d.session_id, now);
}

const providerSide = (a: DelegateAccess) =>
  a.owned && can(a.actor, [P.trainingProviderBookings, P.editBooking], 'any');

/** POST /delegates/{id}/accept (109 or 11 on the session's side): pending → accepted. */
export async function acceptDelegate(ctx: Ctx, delegateId: number) {
  const a = await delegateAccess(ctx, delegateId);
  if (!providerSide(a)) throw forbidden();
  if (!openStatus(a.s)) throw closed();
  return change(ctx, delegateId, ['pending'], async (trx, d, now) => {
    await setDelegateStatus(trx, d.id, { status: 'accepted', now });
    await delegateChanged(trx, d.id, 'accepted', now);
  });
}

/** POST /delegates/{id}/decline (109 or 11): a pending delegate is refused; the place is offered to the waitlist. */
export async function declineDelegate(ctx: Ctx, delegateId: number) {
  const a = await delegateAccess(ctx, delegateId);
  if (!providerSide(a)) throw forbidden();
  if (!openStatus(a.s)) throw closed();
  return change(ctx, delegateId, ['pending'], async (trx, d, now) => {
    await setDelegateStatus(trx, d.id, { status: 'declined', now });
    await freePlaceOf(trx, d, now);
    await delegateChanged(trx, d.id, 'declined', now);
  });
}

const managerSide = (a: DelegateAccess) =>
  a.managed && can(a.actor, [P.createBookings, P.requestBookings], 'any');

/** POST /delegates/{id}/approve (the delegate's manager: 9 or 118 with the delegate in scope): requested → booked. */
export async function approveDelegate(ctx: Ctx, delegateId: number) {
  const a = await delegateAccess(ctx, delegateId);
  if (!managerSide(a)) throw forbidden();
  if (!isOpen(a.s, ctx.clock())) throw closed();
  return change(ctx, delegateId, ['requested'], async (trx, d, now) => {
    await place(trx, a.s, d, { kind: 'book', approval: false }, now, false, 'approved');
  });
}

/** POST /delegates/{id}/reject (the delegate's manager): requested → declined. */
export async function rejectDelegate(ctx: Ctx, delegateId: number) {
  const a = await delegateAccess(ctx, delegateId);
  if (!managerSide(a)) throw forbidden();
  return change(ctx, delegateId, ['requested'], async (trx, d, now) => {
    await setDelegateStatus(trx, d.id, { status: 'declined', now });
    await delegateChanged(trx, d.id, 'declined', now);
  });
}

/** POST /delegates/{id}/restore (the provider's side, or 9 with the delegate in scope): a place or the waitlist. */
export async function restoreDelegate(ctx: Ctx, delegateId: number) {
  const a = await delegateAccess(ctx, delegateId);
  if (!providerSide(a) && !(a.managed && can(a.actor, [P.createBookings]))) throw forbidden();
  if (!isOpen(a.s, ctx.clock())) throw closed();
  return change(ctx, delegateId, DEAD, async (trx, d, now) => {
    await place(trx, a.s, d, { kind: 'staff' }, now, true, 'restored');
  });
}

/** POST /delegates/{id}/claim (the delegate themself): an offered place, before offer_expires_at → accepted. */
export async function claimPlace(ctx: Ctx, delegateId: number) {
  const a = await delegateAccess(ctx, delegateId);
  if (!a.self) throw forbidden();
  if (!openStatus(a.s)) throw closed();
  const now = ctx.clock();
  await transaction(ctx, async (trx) => {
    const d = await lockDelegate(trx, delegateId);
    if (d?.status !== 'offered') throw conflict(DelegateErrors.notOffered);
    if (d.offer_expires_at === null || new Date(d.offer_expires_at) <= now)
      throw new HttpError(422, BookingsMessages.offerExpired);
    await setDelegateStatus(trx, d.id, { status: 'accepted', now });
    await delegateChanged(trx, d.id, 'accepted', now);
  });
  return viewOf(ctx.db, delegateId);
}

/**
 * DELETE /delegates/{id}: 123 with the delegate (or the session) in scope, after the provider's removal cut-off only
 * with 11 as well; or the delegate themself when their organisation allows self-cancelling, before the cut-off.
 * Returns the message to answer with.
 */
export async function removeDelegate(ctx: Ctx, delegateId: number): Promise<string> {
  const a = await delegateAccess(ctx, delegateId);
  const now = ctx.clock();
  const late = pastRemovalCutoff(a.s, now);
  const remover = (a.managed || a.owned) && can(a.actor, [P.removeDelegates]);
  if (remover) {
    if (late && !can(a.actor, [P.editBooking])) throw new HttpError(422, BookingsMessages.pastRemovalCutoff);
  } else if (a.self) {
    if (!(await appliedDelegateSettingsOf(ctx.db, a.d.entity_id)).allow_self_cancel)
      throw forbidden(DelegateErrors.selfCancelOff);
    if (late) throw new HttpError(422, BookingsMessages.pastRemovalCutoff);
  } else throw forbidden();
  // A cancelled or completed session keeps its delegates for the record (attendance, results).
  if (!openStatus(a.s)) throw closed();
  await removeLocked(ctx, delegateId, now);
  return remover ? BookingsMessages.delegateDeleted : BookingsMessages.bookingCancelled;
}

/** The removal itself (also the order cancellation's and GraphQL cancelBookings'): deleted, its place freed. */
export async function removeLocked(ctx: Ctx, delegateId: number, now: Date) {
  await transaction(ctx, async (trx) => {
    const d = await lockDelegate(trx, delegateId);
    if (!d || !isLive(d.status)) throw conflict(DelegateErrors.stateChanged);
    await setDelegateStatus(trx, d.id, { status: 'deleted', now });
    await freePlaceOf(trx, d, now);
    await delegateChanged(trx, d.id, 'removed', now);
  });
}

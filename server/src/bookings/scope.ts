import { BookingsPerm } from '@cc/contracts';
import { type Expression, type ExpressionBuilder, type Selectable, type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Database, TrainingSessionsTable } from '../db/schema';
import type { EntityScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { type Actor, actorOf, type Ctx, can, memo } from '../http/context';
import { notFound } from '../http/errors';
import type { Trx } from '../results/queries';

/**
 * Who may see and manage a training session (issue 15; contracts bookings.ts "Who may do what"). Read any change
 * here twice: it is the bookings' tenant boundary, used by every session and delegate service, REST and GraphQL.
 *
 * Three ways to a session:
 * - **staff**: the session is owned by an organisation in the actor's entity scope (entities/scope.ts: the acting-as
 *   or primary entity and its descendants) and the actor holds one of the bookings staff permissions (9, 11, 109,
 *   123, 128) with the bookings area switched on for their organisation: the a_entity's `can_view_internal_bookings`
 *   or `can_manage_bookings` flag, or the a_entity is a training company (running sessions is its business).
 *   A training company's staff with 109 thus see their company's sessions; 9/11 in an organisation see that
 *   organisation tree's sessions. A super admin without acting-as sees every session.
 * - **trainer**: the session's trainer sees their own session wherever it is (any trainer may list their own).
 * - **delegate**: a user with a row on the session (any status) sees it (their booking, the check-in).
 * Anything else is the same 404 as a missing id.
 */
export const STAFF_PERMS = [
  BookingsPerm.createBookings,
  BookingsPerm.editBooking,
  BookingsPerm.trainingProviderBookings,
  BookingsPerm.removeDelegates,
  BookingsPerm.markDelegates,
] as const;

export interface AEntityFlags {
  id: number;
  is_training_company: boolean;
  can_view_internal_bookings: boolean;
  can_view_external_bookings: boolean;
  can_manage_bookings: boolean;
}

export interface SessionScope {
  actor: Actor;
  userId: number;
  /**
   * Entity ids whose sessions the actor sees as staff: `null` = every entity (super admin without acting-as),
   * `[]` = none (no staff permission or the bookings area is off).
   */
  staffEntityIds: number[] | null;
  /** The acting-as (or primary) entity, and it with its descendants (entities/scope.ts; null = every entity). */
  baseId: number;
  entityIds: number[] | null;
  /** The actor's level A organisation and its flags. */
  aEntity: AEntityFlags;
  /** The actor's organisation tree (a_entity subtree): who "internal" sessions are for. */
  organisationIds: ReadonlySet<number>;
}

export async function loadAEntityFlags(db: Db | Trx, id: number): Promise<AEntityFlags> {
  return db
    .selectFrom('entities')
    .select([
      'id',
      'is_training_company',
      'can_view_internal_bookings',
      'can_view_external_bookings',
      'can_manage_bookings',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
}

/** True when the actor's organisation has the bookings staff area switched on. */
export function bookingsAreaOn(a: AEntityFlags): boolean {
  return a.can_view_internal_bookings || a.can_manage_bookings || a.is_training_company;
}

/**
 * The actor's bookings scope, memoised per request. `db`: the transaction a caller is in (the embedded engine has
 * one connection, so a query on ctx.db inside a transaction would wait forever); the entity scope is the same as
 * entities/scope.ts entityScope (reused when already computed for the request).
 */
export async function sessionScope(ctx: Ctx, db: Db | Trx = ctx.db): Promise<SessionScope> {
  const actor = actorOf(ctx);
  return memo(ctx, 'bookings.sessionScope', async () => {
    const baseId = actor.actingAs?.id ?? actor.primaryEntity.id;
    const known = ctx.memo.get('entityScope') as EntityScope | undefined;
    const [accessible, aEntity, organisation] = await Promise.all([
      known
        ? known.accessible
        : actor.superAdmin && !actor.actingAs
          ? ('all' as const)
          : subtreeIds(db as Db, baseId).then((ids) => new Set(ids)),
      loadAEntityFlags(db, actor.aEntityId),
      subtreeIds(db as Db, actor.aEntityId),
    ]);
    let staffEntityIds: number[] | null = [];
    if (actor.superAdmin || (can(actor, STAFF_PERMS, 'any') && bookingsAreaOn(aEntity)))
      staffEntityIds = accessible === 'all' ? null : [...accessible];
    return {
      actor,
      userId: actor.userId,
      baseId,
      entityIds: accessible === 'all' ? null : [...accessible],
      staffEntityIds,
      aEntity,
      organisationIds: new Set(organisation),
    };
  });
}

export function isStaffFor(scope: SessionScope, entityId: number): boolean {
  return scope.staffEntityIds === null || scope.staffEntityIds.includes(entityId);
}

/** How the actor relates to one session. */
export interface SessionRelation {
  staff: boolean;
  trainer: boolean;
  /** The actor's own delegate row on the session, if any. */
  delegate: { id: number; status: string } | null;
}

export function relationTo(
  scope: SessionScope,
  s: { entity_id: number; trainer_id: number | null },
  delegate: SessionRelation['delegate'] = null,
): SessionRelation {
  return { staff: isStaffFor(scope, s.entity_id), trainer: s.trainer_id === scope.userId, delegate };
}

const has = (scope: SessionScope, ...ids: number[]) => can(scope.actor, ids, 'any');

/** PATCH, cancel (11 on a session in scope). */
export const mayEdit = (scope: SessionScope, rel: SessionRelation) =>
  rel.staff && has(scope, BookingsPerm.editBooking);
/** Complete / mark incomplete: 11 in scope, or the session's trainer. */
export const mayClose = (scope: SessionScope, rel: SessionRelation) => mayEdit(scope, rel) || rel.trainer;
/** See and act on the delegates (add, accept, decline, restore, remove): 9/11/109/123 in scope. */
export const mayManageDelegates = (scope: SessionScope, rel: SessionRelation) =>
  rel.staff &&
  has(
    scope,
    BookingsPerm.createBookings,
    BookingsPerm.editBooking,
    BookingsPerm.trainingProviderBookings,
    BookingsPerm.removeDelegates,
  );
/** See the delegate list: those who manage them, who mark them, and the trainer. */
export const mayViewDelegates = (scope: SessionScope, rel: SessionRelation) =>
  mayManageDelegates(scope, rel) || mayMark(scope, rel);
/** Mark attendance: 128 in scope, or the session's own trainer. */
export const mayMark = (scope: SessionScope, rel: SessionRelation) =>
  rel.trainer || (rel.staff && has(scope, BookingsPerm.markDelegates));
/** See the check-in code: whoever may mark, and 11 in scope. */
export const maySeeCheckInCode = (scope: SessionScope, rel: SessionRelation) =>
  mayMark(scope, rel) || mayEdit(scope, rel);

/**
 * The actor may book themself (108) on the session: open, not started, and offered to them: `internal`/`all`
 * sessions of their own organisation tree, `external`/`all` sessions of a training company when their organisation
 * views external bookings.
 */
export function mayBookSelf(
  scope: SessionScope,
  s: {
    entity_id: number;
    status: string;
    starts_at: Date | string;
    available_to: string;
    /** The owner is a training company a super admin approved (issue 29 §7). */
    owner_is_approved_provider: boolean;
  },
  now: Date,
): boolean {
  if (!has(scope, BookingsPerm.ownBookings)) return false;
  if (s.status !== 'scheduled' && s.status !== 'confirmed') return false;
  if (new Date(s.starts_at).getTime() <= now.getTime()) return false;
  const internal = s.available_to !== 'external' && scope.organisationIds.has(s.entity_id);
  const external =
    s.available_to !== 'internal' && s.owner_is_approved_provider && scope.aEntity.can_view_external_bookings;
  return internal || external;
}

/**
 * The SQL form of "the actor sees this session" (staff, trainer or delegate) for lists over `training_sessions as s`.
 * One clause, used by every list (REST, GraphQL, dashboards).
 */
export function sessionVisibleWhere(scope: SessionScope) {
  return (
    eb: ExpressionBuilder<Database & { s: Database['training_sessions'] }, 's'>,
  ): Expression<SqlBool> => {
    const ors: Expression<SqlBool>[] = [eb('s.trainer_id', '=', scope.userId)];
    if (scope.staffEntityIds === null) ors.push(sql<boolean>`true`);
    else if (scope.staffEntityIds.length > 0) ors.push(eb('s.entity_id', 'in', scope.staffEntityIds));
    ors.push(
      eb.exists(
        eb
          .selectFrom('session_delegates as own')
          .select('own.id')
          .whereRef('own.session_id', '=', 's.id')
          .where('own.user_id', '=', scope.userId),
      ),
    );
    return eb.or(ors);
  };
}

export type SessionRow = Selectable<TrainingSessionsTable>;

export interface LoadedSession {
  session: SessionRow;
  scope: SessionScope;
  rel: SessionRelation;
}

/**
 * The session if the actor sees it (staff in scope, its trainer, or one of its delegates); otherwise 404, the same
 * as a missing id. With `trx` + `forUpdate` the row is locked for the rest of the transaction (read-then-write),
 * after the session's delegate rows (the bookings' lock order: delegates, then the session).
 * With `bookable` a session the actor may book themself (mayBookSelf) also counts as seen.
 */
export async function loadSessionForActor(
  ctx: Ctx,
  id: number,
  o: { trx?: Trx; forUpdate?: boolean; bookable?: boolean } = {},
): Promise<LoadedSession> {
  const db = o.trx ?? ctx.db;
  const scope = await sessionScope(ctx, db);
  let q = db.selectFrom('training_sessions').selectAll().where('id', '=', id);
  if (o.trx && o.forUpdate) {
    // Lock order for the bookings: delegate rows (by id) BEFORE the session row. A delegate action locks its row and
    // then moves the session's places; taking the session's delegates first here means the two never wait for each
    // other in a cycle (a deadlock PostgreSQL would break by failing one of them).
    await o.trx
      .selectFrom('session_delegates')
      .select('id')
      .where('session_id', '=', id)
      .orderBy('id')
      .forUpdate()
      .execute();
    q = q.forUpdate();
  }
  const session = await q.executeTakeFirst();
  if (!session) throw notFound();
  const own = await db
    .selectFrom('session_delegates')
    .select(['id', 'status'])
    .where('session_id', '=', id)
    .where('user_id', '=', scope.userId)
    .executeTakeFirst();
  const rel = relationTo(scope, session, own ?? null);
  if (rel.staff || rel.trainer || rel.delegate) return { session, scope, rel };
  if (o.bookable) {
    const owner = await db
      .selectFrom('entities')
      .select(['is_training_company', 'training_company_status'])
      .where('id', '=', session.entity_id)
      .executeTakeFirstOrThrow();
    const owner_is_approved_provider =
      owner.is_training_company && owner.training_company_status === 'approved';
    if (mayBookSelf(scope, { ...session, owner_is_approved_provider }, ctx.clock()))
      return { session, scope, rel };
  }
  throw notFound();
}

import { CARE_CERTIFICATE_VIEW_PERMS } from '@cc/contracts';
import type { Selectable } from 'kysely';
import type { Db } from '../db/connect';
import type { CareCertificatesTable } from '../db/schema';
import { entityScope, inScope } from '../entities/scope';
import { type Actor, actorOf, type Ctx, can } from '../http/context';
import { forbidden, notFound } from '../http/errors';
import type { Trx } from '../results/queries';

/**
 * Who may reach a care certificate (contracts care-certificate.ts "Who may do what"). THE tenant boundary of the
 * Care Certificate: every service, REST and GraphQL, loads certificates and people through here. Read any change
 * twice.
 *
 * - The certificate's user always reaches their own.
 * - Anyone else needs one of CARE_CERTIFICATE_VIEW_PERMS (or the action's own permission) AND the user's primary
 *   organisation in their entity scope (entities/scope.ts: acting-as or primary entity and its descendants).
 * - Out of scope, or no view permission on someone else's: the same 404 as a missing id. In scope with view rights
 *   but without the action's permission: 403.
 */
export type CertificateRow = Selectable<CareCertificatesTable> & { user_entity_id: number };

export function isOwn(actor: Actor, cert: { user_id: number }): boolean {
  return actor.userId === cert.user_id;
}

/** True when the actor may see people of `entityId`'s certificates with any of `perms` (default: the view perms). */
export async function seesPeopleOf(
  ctx: Ctx,
  entityId: number,
  perms: readonly number[] = CARE_CERTIFICATE_VIEW_PERMS,
): Promise<boolean> {
  const actor = actorOf(ctx);
  return can(actor, perms, 'any') && inScope(await entityScope(ctx), entityId);
}

/**
 * The certificate by uuid, or 404. `db`: the transaction a caller is in (pass it: the embedded engine has one
 * connection). `forUpdate`: lock the row (approvals and completion serialise on it).
 */
export async function certificateFor(
  ctx: Ctx,
  uuid: string,
  o: { db?: Db | Trx; forUpdate?: boolean } = {},
): Promise<CertificateRow> {
  const actor = actorOf(ctx);
  const db = o.db ?? ctx.db;
  let q = db
    .selectFrom('care_certificates as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .selectAll('c')
    .select('u.primary_entity_id as user_entity_id')
    .where('c.uuid', '=', uuid);
  if (o.forUpdate) q = q.forUpdate('c');
  const cert = /^[0-9a-f-]{36}$/i.test(uuid) ? await q.executeTakeFirst() : undefined;
  if (!cert) throw notFound();
  if (!isOwn(actor, cert) && !(await seesPeopleOf(ctx, cert.user_entity_id))) throw notFound();
  return cert;
}

/**
 * 403 unless the actor holds one of `perms` (or it is their own certificate and `ownAllowed`). Call after
 * certificateFor, which has already turned out-of-scope ids into 404.
 */
export function requireOn(
  ctx: Ctx,
  cert: { user_id: number },
  perms: readonly number[],
  o: { ownAllowed?: boolean } = {},
): Actor {
  const actor = actorOf(ctx);
  if (o.ownAllowed && isOwn(actor, cert)) return actor;
  if (!can(actor, perms, 'any')) throw forbidden();
  return actor;
}

/** A person the actor may act on (assign, historical, report): in scope or 404. Returns their primary entity. */
export async function personInScope(ctx: Ctx, userId: number, db: Db | Trx = ctx.db) {
  const user = await db
    .selectFrom('users')
    .select(['id', 'uuid', 'name', 'primary_entity_id'])
    .where('id', '=', userId)
    .executeTakeFirst();
  if (!user || !inScope(await entityScope(ctx), user.primary_entity_id)) throw notFound();
  return user;
}

/** Entity ids whose people's certificates lists cover: null = every entity (super admin without acting-as). */
export async function scopedEntityIds(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

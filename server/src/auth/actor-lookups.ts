import type { Expression, RawBuilder } from 'kysely';
import type { Actor, ActorEntity, Ctx } from '../http/context';
import { providedAtStart } from './provided-at-start';

/**
 * Issue 34 §1: what resolving the caller asks of the capabilities above auth (the entity tree, the permission
 * catalogue, acting-as). Auth and http are lower layers and import none of them: bootstrap.ts (openDeps) provides
 * these once at start, before any request or job loads a caller.
 *
 * The permissions and the level A organisation come as SQL over the caller's own row (issue 36 §2): resolving a
 * caller is then one statement (credential, user, entity, permissions, organisation) instead of four in a row, and
 * the capability still owns its rule (its own functions read the same SQL).
 */
export interface ActorLookups {
  /** The permission ids the user holds, ascending (permissions/catalogue.ts effectivePermissionIdsSql). */
  effectivePermissionIdsSql(user: {
    id: Expression<number | null>;
    typeId: Expression<number | null>;
    primaryEntityId: Expression<number | null>;
  }): RawBuilder<number[]>;
  /** The level A organisation at the top of the entity's branch (entities/tree.ts aEntityIdSql). */
  aEntityIdSql(entityId: Expression<number | null>): RawBuilder<number>;
  /** The entity an acting-as slug names, null for "no acting-as", else 403/404 (entities/scope.ts resolveActingAs). */
  resolveActingAs(
    ctx: Ctx,
    slug: string,
    actor: Pick<Actor, 'superAdmin' | 'primaryEntity' | 'aEntityId' | 'permissions'>,
  ): Promise<ActorEntity | null>;
}

const lookups = providedAtStart<ActorLookups>('The actor lookups (auth/actor-lookups.ts)');

/** Called by bootstrap.ts at start. */
export const provideActorLookups = (provided: ActorLookups): void => lookups.provide(provided);

export const actorLookups = (): ActorLookups => lookups.get();

import type { Db } from '../db/connect';
import type { Actor, ActorEntity, Ctx } from '../http/context';

/**
 * Issue 34 §1: what resolving the caller asks of the capabilities above auth (the entity tree, the permission
 * catalogue, acting-as). Auth and http are lower layers and import none of them: bootstrap.ts (openDeps) provides
 * these once at start, before any request or job loads a caller.
 */
export interface ActorLookups {
  /** The permission ids the user holds (permissions/catalogue.ts effectivePermissionIds). */
  effectivePermissionIds(
    db: Db,
    user: { id: number; type_id: number | null; primary_entity_id: number },
  ): Promise<number[]>;
  /** The level A organisation at the top of the entity's branch (entities/tree.ts aEntityIdOf). */
  aEntityIdOf(db: Db, entityId: number): Promise<number>;
  /** The entity an acting-as slug names, null for "no acting-as", else 403/404 (entities/scope.ts resolveActingAs). */
  resolveActingAs(
    ctx: Ctx,
    slug: string,
    actor: Pick<Actor, 'superAdmin' | 'primaryEntity' | 'aEntityId' | 'permissions'>,
  ): Promise<ActorEntity | null>;
}

let provided: ActorLookups | null = null;

/** Called by bootstrap.ts at start; a second call replaces the first (the same functions). */
export function provideActorLookups(lookups: ActorLookups): void {
  provided = lookups;
}

export function actorLookups(): ActorLookups {
  if (!provided)
    throw new Error(
      'Actor lookups are not provided: start through bootstrap.ts openDeps, which calls provideActorLookups (auth/actor-lookups.ts).',
    );
  return provided;
}

import type { Db } from '../db/connect';
import type { Actor, ActorEntity, Ctx } from '../http/context';
import { providedAtStart } from './provided-at-start';

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

const lookups = providedAtStart<ActorLookups>('The actor lookups (auth/actor-lookups.ts)');

/** Called by bootstrap.ts at start. */
export const provideActorLookups = (provided: ActorLookups): void => lookups.provide(provided);

export const actorLookups = (): ActorLookups => lookups.get();

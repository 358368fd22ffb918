import {
  Perm,
  ROLE_DETAILS_USERS,
  type Role,
  type RoleBody,
  type RoleListQuery,
  type RoleStatsQuery,
  type TypeBody,
  type TypeListQuery,
  type UpdateRoleBody,
  type UpdateTypeBody,
  type UserType,
} from '@cc/contracts';
import type { z } from 'zod';
import { recordAudit } from '../audit/record';
import { assertEntityInScope, entityScope } from '../entities/scope';
import { ancestorIds, subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { forbidden, HttpError, invalidField, notFound } from '../http/errors';
import { presentHolder, presentRole, presentType } from './presenters';
import {
  countAllHolders,
  deleteUnusedRole,
  findEntityBySlug,
  findRole,
  insertRole,
  listRoles as listRoleRows,
  nameTaken,
  type RoleKind,
  roleHolders,
  updateRole as updateRoleRow,
} from './queries';

/**
 * Job roles and user types (spec 2 §7 "Roles and types"). They belong to an entity; a level B entity also uses the
 * roles and types of its ancestors (its level A parent), which it sees flagged `inherited` and cannot change.
 */
interface KindRules {
  view: number[];
  create: number[];
  update: number[];
  remove: number[];
  label: string;
}
const RULES: Record<RoleKind, KindRules> = {
  // 98 "read-only entity roles" lets a user see roles without changing them.
  role: {
    view: [Perm.viewRoles, Perm.readOnlyRoles],
    create: [Perm.createRoles],
    update: [Perm.updateRoles],
    remove: [Perm.deleteRoles],
    label: 'job role',
  },
  type: {
    view: [Perm.viewTypes],
    create: [Perm.createTypes],
    update: [Perm.updateTypes],
    remove: [Perm.deleteTypes],
    label: 'user type',
  },
};

export const NAME_TAKEN = 'The name has already been taken.';
const inheritedReadOnly = (label: string) =>
  `This ${label} belongs to a parent organisation and can only be changed there.`;
const inUse = (label: string, n: number) =>
  `This ${label} cannot be deleted: ${n} ${n === 1 ? 'user still holds' : 'users still hold'} it. Move ${
    n === 1 ? 'that user' : 'them'
  } to another ${label} first.`;

type Present<K extends RoleKind> = K extends 'role' ? Role : UserType;
const present = <K extends RoleKind>(kind: K, row: Parameters<typeof presentRole>[0], from?: number) =>
  (kind === 'role' ? presentRole(row, from) : presentType(row, from)) as Present<K>;

/** The entity named in the path, inside the caller's scope (404 otherwise, never 403: spec ARCHITECTURE). */
export async function entityInScope(ctx: Ctx, slug: string) {
  actorOf(ctx); // 401 before anything is looked up
  const entity = await findEntityBySlug(ctx.db, slug);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  return entity;
}

/**
 * Entities whose roles the caller may see outside a path entity (stats, details): the scope plus the ancestors of
 * its base, whose roles the scope's users inherit. Holders are only counted inside the scope. null: no bound.
 */
async function visibility(ctx: Ctx): Promise<{ owners: number[] | null; holders: number[] | null }> {
  const scope = await entityScope(ctx);
  if (scope.accessible === 'all') return { owners: null, holders: null };
  const ancestors = await ancestorIds(ctx.db, scope.baseId);
  return { owners: [...new Set([...scope.accessible, ...ancestors])], holders: [...scope.accessible] };
}

/**
 * The same bounds seen from a path entity (GET /entities/{slug}/roles/stats and …/roles/{id}/details, spec 2 §7,
 * issue 38): roles of the entity, its ancestors and its sub-organisations; holders counted in its subtree. The
 * entity must be in the caller's scope (404 otherwise).
 */
async function entityVisibility(ctx: Ctx, slug: string): Promise<{ owners: number[]; holders: number[] }> {
  const entity = await entityInScope(ctx, slug);
  const [ancestors, subtree] = await Promise.all([
    ancestorIds(ctx.db, entity.id),
    subtreeIds(ctx.db, entity.id),
  ]);
  return { owners: [...new Set([...ancestors, ...subtree])], holders: subtree };
}

async function list<K extends RoleKind>(
  ctx: Ctx,
  kind: K,
  slug: string,
  query: z.infer<typeof RoleListQuery>,
) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, RULES[kind].view, 'any');
  const [owners, subtree] = await Promise.all([
    ancestorIds(ctx.db, entity.id),
    subtreeIds(ctx.db, entity.id),
  ]);
  const { rows, total } = await listRoleRows(ctx.db, kind, {
    ownerEntityIds: owners,
    countEntityIds: subtree,
    search: query.search,
    // spec 1 §3 / spec 2 §4: "role inspectable filter (default all)".
    inspectable: query.inspectable === '1' ? true : query.inspectable === '0' ? false : undefined,
    page: query.page,
    perPage: query.per_page,
    order: 'name',
  });
  return { data: rows.map((r) => present(kind, r, entity.id)), total };
}

/** The role as seen from the path entity: its own or an ancestor's (404 otherwise). */
async function load(ctx: Ctx, kind: RoleKind, slug: string, id: number) {
  const entity = await entityInScope(ctx, slug);
  const role = await findRole(ctx.db, kind, id, await ancestorIds(ctx.db, entity.id));
  if (!role) throw notFound();
  return { entity, role };
}

async function get<K extends RoleKind>(ctx: Ctx, kind: K, slug: string, id: number) {
  const { entity, role } = await load(ctx, kind, slug, id);
  authorize(ctx, RULES[kind].view, 'any');
  const { total } = await roleHolders(ctx.db, kind, id, await subtreeIds(ctx.db, entity.id), 0);
  return present(kind, { ...role, users_count: total }, entity.id);
}

async function create<K extends RoleKind>(
  ctx: Ctx,
  kind: K,
  slug: string,
  body: { name: string; inspectable?: boolean },
) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, RULES[kind].create);
  if (await nameTaken(ctx.db, kind, entity.id, body.name)) throw invalidField('name', NAME_TAKEN);
  const id = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const id = await insertRole(trx, kind, { entity_id: entity.id, ...body });
      await auditRole(trx, ctx, kind, 'created', undefined, await findRole(trx, kind, id, null));
      return id;
    })
    .catch(uniqueToNameTaken);
  const role = await findRole(ctx.db, kind, id, null);
  if (!role) throw notFound();
  return present(kind, { ...role, users_count: 0 }, entity.id);
}

async function update<K extends RoleKind>(
  ctx: Ctx,
  kind: K,
  slug: string,
  id: number,
  body: { name?: string; inspectable?: boolean },
) {
  const { entity, role } = await load(ctx, kind, slug, id);
  authorize(ctx, RULES[kind].update);
  if (role.entity_id !== entity.id) throw forbidden(inheritedReadOnly(RULES[kind].label));
  if (body.name !== undefined && (await nameTaken(ctx.db, kind, entity.id, body.name, id)))
    throw invalidField('name', NAME_TAKEN);
  await ctx.db
    .transaction()
    .execute(async (trx) => {
      const before = await findRole(trx, kind, id, null);
      await updateRoleRow(trx, kind, id, body, ctx.clock());
      await auditRole(trx, ctx, kind, 'updated', before, await findRole(trx, kind, id, null));
    })
    .catch(uniqueToNameTaken);
  return get(ctx, kind, slug, id);
}

async function remove(ctx: Ctx, kind: RoleKind, slug: string, id: number): Promise<void> {
  const { entity, role } = await load(ctx, kind, slug, id);
  authorize(ctx, RULES[kind].remove);
  if (role.entity_id !== entity.id) throw forbidden(inheritedReadOnly(RULES[kind].label));
  // Holders anywhere count (a level A role is held in its level B sites): never leave users pointing at nothing.
  const holders = await countAllHolders(ctx.db, kind, id);
  const deleted =
    holders === 0 &&
    (await ctx.db.transaction().execute(async (trx) => {
      const before = await findRole(trx, kind, id, null);
      if (!(await deleteUnusedRole(trx, kind, id))) return false;
      await auditRole(trx, ctx, kind, 'deleted', before, undefined);
      return true;
    }));
  if (!deleted) {
    const n = holders || (await countAllHolders(ctx.db, kind, id));
    throw new HttpError(409, inUse(RULES[kind].label, n), undefined, { users_count: n });
  }
}

type RoleSnapshot = Awaited<ReturnType<typeof findRole>>;

/** A role or user type created, renamed or deleted, in the change's transaction (issue 35 §3). */
async function auditRole(
  trx: Parameters<typeof insertRole>[0],
  ctx: Ctx,
  kind: RoleKind,
  action: 'created' | 'updated' | 'deleted',
  before: RoleSnapshot,
  after: RoleSnapshot,
): Promise<void> {
  const values = after ?? before;
  if (!values) return;
  const keep = (r: RoleSnapshot) =>
    r
      ? {
          id: r.id,
          entity_id: r.entity_id,
          name: r.name,
          ...(kind === 'role' ? { inspectable: r.inspectable } : {}),
        }
      : null;
  await recordAudit(trx as never, ctx, {
    action,
    kind,
    subjectId: values.id,
    entityId: values.entity_id,
    label: values.name,
    before: keep(before),
    after: keep(after),
  });
}

/** Users per role across the caller's scope (deep), most held first. */
async function stats<K extends RoleKind>(
  ctx: Ctx,
  kind: K,
  query: z.infer<typeof RoleStatsQuery>,
  slug?: string,
) {
  const bounds = slug === undefined ? undefined : await entityVisibility(ctx, slug);
  authorize(ctx, RULES[kind].view, 'any');
  const { owners, holders } = bounds ?? (await visibility(ctx));
  const { rows, total } = await listRoleRows(ctx.db, kind, {
    ownerEntityIds: owners,
    countEntityIds: holders,
    search: query.search,
    page: query.page,
    perPage: query.per_page,
    order: 'users_count',
  });
  return { data: rows.map((r) => present(kind, r)), total };
}

/** One role, its entity, its holder count and first holders (by name), within the caller's scope. */
async function details<K extends RoleKind>(ctx: Ctx, kind: K, id: number, slug?: string) {
  const { owners, holders } = slug === undefined ? await visibility(ctx) : await entityVisibility(ctx, slug);
  const role = await findRole(ctx.db, kind, id, owners);
  if (!role) throw notFound();
  authorize(ctx, RULES[kind].view, 'any');
  const found = await roleHolders(ctx.db, kind, id, holders, ROLE_DETAILS_USERS);
  return {
    ...present(kind, { ...role, users_count: found.total }),
    users: found.users.map(presentHolder),
  };
}

function uniqueToNameTaken(error: unknown): never {
  if ((error as { code?: string })?.code === '23505') throw invalidField('name', NAME_TAKEN);
  throw error;
}

// Job roles (GraphQL calls these too).
export const listRoles = (ctx: Ctx, slug: string, query: z.infer<typeof RoleListQuery>) =>
  list(ctx, 'role', slug, query);
export const getRole = (ctx: Ctx, slug: string, id: number) => get(ctx, 'role', slug, id);
export const createRole = (ctx: Ctx, slug: string, body: z.infer<typeof RoleBody>) =>
  create(ctx, 'role', slug, body);
export const updateRole = (ctx: Ctx, slug: string, id: number, body: z.infer<typeof UpdateRoleBody>) =>
  update(ctx, 'role', slug, id, body);
export const deleteRole = (ctx: Ctx, slug: string, id: number) => remove(ctx, 'role', slug, id);
/** `slug`: seen from that entity (GET /entities/{slug}/roles/stats), else across the caller's scope. */
export const roleStats = (ctx: Ctx, query: z.infer<typeof RoleStatsQuery>, slug?: string) =>
  stats(ctx, 'role', query, slug);
export const roleDetails = (ctx: Ctx, id: number, slug?: string) => details(ctx, 'role', id, slug);

// User types.
export const listTypes = (ctx: Ctx, slug: string, query: z.infer<typeof TypeListQuery>) =>
  list(ctx, 'type', slug, query);
export const getType = (ctx: Ctx, slug: string, id: number) => get(ctx, 'type', slug, id);
export const createType = (ctx: Ctx, slug: string, body: z.infer<typeof TypeBody>) =>
  create(ctx, 'type', slug, body);
export const updateType = (ctx: Ctx, slug: string, id: number, body: z.infer<typeof UpdateTypeBody>) =>
  update(ctx, 'type', slug, id, body);
export const deleteType = (ctx: Ctx, slug: string, id: number) => remove(ctx, 'type', slug, id);
export const typeStats = (ctx: Ctx, query: z.infer<typeof RoleStatsQuery>, slug?: string) =>
  stats(ctx, 'type', query, slug);
export const typeDetails = (ctx: Ctx, id: number, slug?: string) => details(ctx, 'type', id, slug);

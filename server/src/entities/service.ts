import {
  type CreateEntityBody,
  type EntityDto,
  type EntityListQuery,
  EntityMessages,
  type EntitySummary,
  type OrganisationNode,
  type Paged,
  PERMISSIONS,
  Perm,
  type UpdateEntityBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { parseRequirements } from '../auth/password-rules';
import { hashPassword } from '../auth/passwords';
import { issueUserToken, TOKEN_TTL_MINUTES } from '../auth/user-tokens';
import { entityRecordScores } from '../compliance/scores';
import { markScoresStale } from '../compliance/scores-cache';
import { coursesAvailableAt } from '../courses/assignments';
import type { EntityUpdate, NewEntity } from '../db/schema';
import { type Actor, actorOf, authorize, type Ctx, can } from '../http/context';
import { paginate } from '../http/envelope';
import { type FieldErrors, forbidden, invalid, invalidField, notFound } from '../http/errors';
import { queueMail } from '../mail/jobs';
import { resetUrl, welcomeMail } from '../mail/templates';
import { whitelabelOfEntity } from '../whitelabel/service';
import { auditEntity, entityColumns } from './audit';
import { presentEntity, presentEntitySummary } from './presenters';
import * as q from './queries';
import { entityScope, inScope } from './scope';
import { uniqueEntitySlug } from './slugs';
import { setTrainingCompanyFlag } from './training-company-queries';

export { getWhitelabel } from '../whitelabel/service';

type ListQuery = z.infer<typeof EntityListQuery>;
type Page = { page: number; per_page: number };

const pageOf = (p: Page) => ({ limit: p.per_page, offset: (p.page - 1) * p.per_page });

/**
 * GET /entities (spec 1 §7, permission 22). Bounded by the scope: the base entity (acting-as, else primary)
 * and its direct children, or its whole subtree when `deep`. A super admin without acting-as stands above every
 * organisation: not deep lists the organisations (top-level entities), deep lists every entity.
 * `parent_id` lists that parent's children (the parent must be in scope, else the list is empty) whatever `deep`.
 */
export async function listEntities(
  ctx: Ctx,
  query: ListQuery,
  baseUrl = '/api/entities',
): Promise<Paged<EntityDto>> {
  authorize(ctx, [Perm.searchEntities]);
  const scope = await entityScope(ctx);
  const filter: q.EntityListFilter = {
    ids: scope.accessible === 'all' ? null : [...scope.accessible],
    level: query.level,
    isTrainingCompany: query.is_training_company,
    search: query.search || undefined,
  };
  if (query.parent_id !== undefined) filter.parentId = query.parent_id;
  else if (!query.deep) {
    if (scope.accessible === 'all') filter.topLevelOnly = true;
    else filter.baseAndChildrenOf = scope.baseId;
  }
  const { rows, total } = await q.listEntities(ctx.db, filter, pageOf(query));
  // issue 38: list items carry `children` like the single entity (spec 1 §3), one query for the page.
  const [entities, children] = await Promise.all([
    presentEntities(ctx, rows),
    q.childrenOfMany(
      ctx.db,
      rows.map((r) => r.id),
    ),
  ]);
  const byParent = new Map<number, EntitySummary[]>();
  for (const c of children) {
    if (c.parent_id === null || !inScope(scope, c.id)) continue;
    const list = byParent.get(c.parent_id);
    if (list) list.push(presentEntitySummary(c));
    else byParent.set(c.parent_id, [presentEntitySummary(c)]);
  }
  const data = entities.map((e) => ({ ...e, children: byParent.get(e.id) ?? [] }));
  return paginate(data, total, query, withQuery(baseUrl, query));
}

/**
 * Entity records with their `courses` and `score` (spec 1 §3): one query for the courses and one for the scores of
 * the whole page, never one per entity.
 */
async function presentEntities(ctx: Ctx, rows: q.EntityWithParent[]): Promise<EntityDto[]> {
  const actor = actorOf(ctx);
  const ids = rows.map((r) => r.id);
  const [courses, scores] = await Promise.all([coursesAvailableAt(ctx, ids), entityRecordScores(ctx, ids)]);
  const canSeeNotes = can(actor, [Perm.entityNotesView]);
  return rows.map((row) =>
    presentEntity(row, { canSeeNotes, courses: courses.get(row.id) ?? [], score: scores?.get(row.id) }),
  );
}

/** Keeps the caller's filters on the paginator's links. */
function withQuery(baseUrl: string, query: Record<string, unknown>): string {
  const url = new URL(baseUrl, 'http://x');
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || key === 'page') continue;
    url.searchParams.set(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return `${url.pathname}${url.search}`;
}

/** Own primary entity and own a_entity: every member may read their own organisation. */
const isOwn = (actor: Actor, entityId: number) =>
  entityId === actor.primaryEntity.id || entityId === actor.aEntityId;

/**
 * Loads an entity the caller may see, else 404 (never 403: ids of other organisations reveal nothing).
 * Visible: in the scope, or the caller's own primary entity / a_entity.
 */
async function loadVisible(ctx: Ctx, ref: string) {
  const actor = actorOf(ctx);
  const row = await q.findEntityByRef(ctx.db, ref);
  if (!row) throw notFound();
  if (!inScope(await entityScope(ctx), row.id) && !isOwn(actor, row.id)) throw notFound();
  return row;
}

/** Loads an entity inside the scope (for changes), else 404. */
async function loadInScope(ctx: Ctx, ref: string) {
  actorOf(ctx);
  const row = await q.findEntityByRef(ctx.db, ref);
  if (!row || !inScope(await entityScope(ctx), row.id)) throw notFound();
  return row;
}

/**
 * GET /entities/{id} (spec 1 §7): id or slug. Permission 53 (see entity) unless it is the caller's own entity.
 * Includes the direct children and the effective white-label settings.
 */
export async function getEntity(ctx: Ctx, ref: string): Promise<EntityDto> {
  const actor = actorOf(ctx);
  const row = await loadVisible(ctx, ref);
  if (!isOwn(actor, row.id)) authorize(ctx, [Perm.seeEntity]);
  const [children, whitelabel, [entity]] = await Promise.all([
    q.childrenOf(ctx.db, row.id),
    whitelabelOfEntity(ctx, row.id),
    presentEntities(ctx, [row]),
  ]);
  return {
    ...(entity as EntityDto),
    children: children.map(presentEntitySummary),
    whitelabel,
  };
}

/** Fields only some callers may set (spec 2 §6: 51 expiry warning, 52 starter period, 119 entity notes update). */
const GUARDED_FIELDS = [
  ['expiry_warning', Perm.expiryWarning],
  ['starter_period', Perm.starterPeriod],
  ['new_requirement_days', Perm.starterPeriod],
  ['notes', Perm.entityNotesUpdate],
] as const;

/**
 * Product feature flags (spec 1 §3 a_entity flags) switch paid areas on: ours, only a super admin sets them,
 * so an organisation cannot grant itself a feature.
 */
const FEATURE_FLAGS = [
  'can_view_internal_bookings',
  'can_view_external_bookings',
  'can_manage_bookings',
  'can_see_new_dashboards',
] as const;

/** What a new entity has when a field is not given (the column defaults of migration 001). */
const CREATE_DEFAULTS: Record<string, unknown> = {
  expiry_warning: 30,
  starter_period: 90,
  new_requirement_days: 0,
  notes: null,
  can_view_internal_bookings: false,
  can_view_external_bookings: false,
  can_manage_bookings: false,
  can_see_new_dashboards: false,
};

/**
 * Only a real change needs the extra permission (against the stored row, or the defaults on create), so a full
 * settings form can be sent back as shown to a caller who may not change every field.
 */
function assertMaySet(
  actor: Actor,
  body: Record<string, unknown>,
  current: Record<string, unknown> | null,
): void {
  const base = current ?? CREATE_DEFAULTS;
  const changes = (field: string) => body[field] !== undefined && !sameValue(body[field], base[field]);
  for (const [field, permission] of GUARDED_FIELDS) {
    if (changes(field) && !can(actor, [permission])) throw forbidden();
  }
  for (const flag of FEATURE_FLAGS) {
    if (changes(flag) && !actor.superAdmin) throw forbidden();
  }
}

const sameValue = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/** Settings columns from the body (the contract's names are the column names), password hashed. */
async function settingsColumns(body: CreateEntityBody | UpdateEntityBody): Promise<EntityUpdate> {
  const {
    name,
    slug,
    parent_id: _parent,
    restricted_access_password,
    password_requirements,
    focused_courses,
    level: _level,
    restricted_access_at,
    ...rest
  } = body;
  const values: EntityUpdate = { ...rest };
  if (restricted_access_at !== undefined)
    values.restricted_access_at = restricted_access_at === null ? null : new Date(restricted_access_at);
  if (name !== undefined) values.name = name;
  if (slug !== undefined) values.slug = slug;
  if (password_requirements !== undefined)
    values.password_requirements = JSON.stringify(password_requirements);
  if (focused_courses !== undefined) values.focused_courses = JSON.stringify(focused_courses);
  if (restricted_access_password !== undefined) {
    // Stored hashed with argon2id (ASVS 2.4); an empty value clears it.
    values.restricted_access_password = restricted_access_password
      ? await hashPassword(restricted_access_password)
      : null;
  }
  return values;
}

/**
 * A new entity marked a training company (issue 29 §7): approved when a super admin makes it, else a request that
 * waits for one (pending).
 */
function trainingCompanyOnCreate(actor: Actor, on: boolean, now: Date): Partial<NewEntity> {
  if (!on) return { is_training_company: false };
  return actor.superAdmin
    ? {
        is_training_company: true,
        training_company_status: 'approved',
        training_company_requested_at: now,
        training_company_decided_at: now,
        training_company_decided_by: actor.userId,
      }
    : { is_training_company: true, training_company_status: 'pending', training_company_requested_at: now };
}

/** Maps a unique violation that slipped past the pre-checks (a concurrent insert) to the same 422. */
function uniqueToInvalid(error: unknown): never {
  if (q.isUniqueViolation(error, 'slug')) throw invalidField('slug', EntityMessages.slugTaken);
  if (q.isUniqueViolation(error, 'subdomain')) throw invalidField('subdomain', EntityMessages.subdomainTaken);
  throw error;
}

async function assertUnique(
  ctx: Ctx,
  fields: { slug?: string; subdomain?: string | null },
  exceptId?: number,
): Promise<void> {
  const errors: FieldErrors = {};
  if (fields.slug && (await q.slugExists(ctx.db, fields.slug, exceptId)))
    errors.slug = [EntityMessages.slugTaken];
  if (fields.subdomain && (await q.subdomainExists(ctx.db, fields.subdomain, exceptId)))
    errors.subdomain = [EntityMessages.subdomainTaken];
  if (Object.keys(errors).length) throw invalid(errors);
}

/** A parent must be a level A entity inside the caller's scope; anything else is the same 422. */
async function assertValidParent(ctx: Ctx, parentId: number) {
  const parent = await q.findEntityById(ctx.db, parentId);
  if (parent?.level !== 'A' || !inScope(await entityScope(ctx), parent.id))
    throw invalidField('parent_id', EntityMessages.parentInvalid);
  return parent;
}

/**
 * POST /entities (spec 1 §7, permission 1). Level B hangs under a level A entity in scope; a new organisation
 * (level A, no parent) is a super admin's act. A level B entity starts with its parent's entity permissions, a
 * level A with the whole catalogue.
 */
export async function createEntity(ctx: Ctx, body: CreateEntityBody): Promise<EntityDto> {
  const actor = authorize(ctx, [Perm.addEntity]);
  assertMaySet(actor, body, null);
  let parentId: number | null = null;
  if (body.level === 'A') {
    if (body.parent_id !== undefined && body.parent_id !== null)
      throw invalidField('parent_id', EntityMessages.levelANoParent);
    if (!actor.superAdmin) throw forbidden();
  } else {
    if (body.parent_id === undefined || body.parent_id === null)
      throw invalidField('parent_id', EntityMessages.parentRequired);
    parentId = (await assertValidParent(ctx, body.parent_id)).id;
  }
  await assertUnique(ctx, { slug: body.slug, subdomain: body.subdomain });
  const slug = body.slug ?? (await uniqueEntitySlug(ctx.db, body.name));
  const values = (await settingsColumns(body)) as NewEntity;

  let id: number;
  try {
    id = await ctx.db.transaction().execute(async (trx) => {
      const row = await q.insertEntity(trx, {
        ...values,
        ...trainingCompanyOnCreate(actor, body.is_training_company === true, ctx.clock()),
        name: body.name,
        slug,
        level: body.level,
        parent_id: parentId,
      });
      if (parentId !== null) await q.copyEntityPermissions(trx, parentId, row.id);
      else
        await q.grantEntityPermissions(
          trx,
          row.id,
          PERMISSIONS.map((p) => p.id),
        );
      await auditEntity(
        trx,
        ctx,
        'created',
        null,
        await entityColumns(trx, row.id, ['slug', 'level', 'parent_id']),
      );
      return row.id;
    });
  } catch (error) {
    uniqueToInvalid(error);
  }
  const row = await q.findEntityById(ctx.db, id);
  if (!row) throw notFound();
  return (await presentEntities(ctx, [row]))[0] as EntityDto;
}

/**
 * PATCH /entities/{id} (spec 1 §7, permission 2). Moving a site to another parent needs 84 and a level A parent
 * in scope; only level B entities have parents; the level never changes.
 */
export async function updateEntity(ctx: Ctx, ref: string, body: UpdateEntityBody): Promise<EntityDto> {
  const row = await loadInScope(ctx, ref);
  const actor = authorize(ctx, [Perm.updateEntity]);
  assertMaySet(actor, body, row);
  if (body.level !== undefined && body.level !== row.level)
    throw invalidField('level', EntityMessages.levelFixed);

  const parentChanges = body.parent_id !== undefined && body.parent_id !== row.parent_id;
  if (parentChanges) {
    if (!can(actor, [Perm.updateParentEntity])) throw forbidden();
    if (row.level === 'A') throw invalidField('parent_id', EntityMessages.levelANoParent);
    if (body.parent_id === null) throw invalidField('parent_id', EntityMessages.parentRequired);
    const parent = await assertValidParent(ctx, body.parent_id as number);
    // Parents are level A and level A entities have no parent, so no cycle can form; keep the guard explicit.
    if (parent.id === row.id) throw invalidField('parent_id', EntityMessages.parentInvalid);
  }
  await assertUnique(
    ctx,
    {
      slug: body.slug !== undefined && body.slug !== row.slug ? body.slug : undefined,
      subdomain:
        body.subdomain !== undefined && body.subdomain !== row.subdomain ? body.subdomain : undefined,
    },
    row.id,
  );
  const values = await settingsColumns(body);
  // The rules not sent keep their stored values (a PATCH changes only what it is sent).
  if (body.password_requirements !== undefined)
    values.password_requirements = JSON.stringify({
      ...parseRequirements(row.password_requirements),
      ...body.password_requirements,
    });
  if (parentChanges) values.parent_id = body.parent_id;
  values.updated_at = ctx.clock();
  // The training company flag moves with its approval, in one statement of its own (issue 29 §7).
  delete values.is_training_company;
  try {
    await ctx.db.transaction().execute(async (trx) => {
      // The training company flag is set by its own statement below; its change is audited with the rest.
      const columns = [
        ...Object.keys(values),
        ...(body.is_training_company !== undefined ? ['is_training_company', 'training_company_status'] : []),
      ];
      const before = await entityColumns(trx, row.id, columns);
      await q.updateEntityRow(trx, row.id, values);
      if (body.is_training_company !== undefined)
        await setTrainingCompanyFlag(
          trx,
          row.id,
          body.is_training_company,
          actor.superAdmin ? actor.userId : null,
          ctx.clock(),
        );
      await auditEntity(trx, ctx, 'updated', before, await entityColumns(trx, row.id, columns));
    });
  } catch (error) {
    uniqueToInvalid(error);
  }
  // The warning window and starter period change cells' statuses and who is a new starter; a new parent moves the
  // site's people (and the rows they inherit) between subtrees: cached scores no longer hold.
  if (
    (body.expiry_warning !== undefined && body.expiry_warning !== row.expiry_warning) ||
    (body.starter_period !== undefined && body.starter_period !== row.starter_period) ||
    parentChanges
  )
    markScoresStale();
  const updated = await q.findEntityById(ctx.db, row.id);
  if (!updated) throw notFound();
  return (await presentEntities(ctx, [updated]))[0] as EntityDto;
}

/**
 * POST /entities/{id}/send-welcome-email (spec 1 §7, permission 3): a set-your-password link to every user of
 * the entity who has never signed in. The links and their mail commit together; the job queue delivers the mail
 * after the commit (mail/jobs.ts).
 */
export async function sendWelcomeEmails(ctx: Ctx, ref: string): Promise<{ sent: number }> {
  const row = await loadInScope(ctx, ref);
  authorize(ctx, [Perm.addUser]);
  const users = await q.usersNeverLoggedIn(ctx.db, row.id);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    for (const user of users) {
      const token = await issueUserToken(trx, {
        userId: user.id,
        purpose: 'password_reset',
        email: user.email,
        ttlMinutes: TOKEN_TTL_MINUTES.welcome,
        now,
      });
      await queueMail(ctx, trx, welcomeMail(user, row.name, resetUrl(ctx.config.appUrl, token, user.email)));
    }
  });
  return { sent: users.length };
}

/** GET /entities/{id}/children (spec 1 §7): 22 or 53, the parent in scope; paged like every list. */
export async function listChildren(
  ctx: Ctx,
  ref: string,
  query: Page & { search?: string },
  baseUrl: string,
): Promise<Paged<EntityDto>> {
  const row = await loadInScope(ctx, ref);
  authorize(ctx, [Perm.searchEntities, Perm.seeEntity], 'any');
  const { rows, total } = await q.pagedChildrenOf(ctx.db, row.id, query.search || undefined, pageOf(query));
  return paginate(await presentEntities(ctx, rows), total, query, withQuery(baseUrl, query));
}

/**
 * GET /entities/organisation (spec 1 §7): any signed-in user's organisation as a tree, from their a_entity
 * (or the acting-as entity). One recursive query, assembled in memory.
 */
export async function organisationTree(ctx: Ctx): Promise<OrganisationNode> {
  const actor = actorOf(ctx);
  const rootId = actor.actingAs?.id ?? actor.aEntityId;
  const rows = await q.subtreeNodes(ctx.db, rootId);
  const nodes = new Map<number, OrganisationNode & { parent_id: number | null }>();
  for (const r of rows) {
    nodes.set(r.id, {
      id: r.id,
      uuid: r.uuid,
      slug: r.slug,
      name: r.name,
      level: r.level,
      is_training_company: r.is_training_company,
      parent_id: r.parent_id,
      children: [],
    });
  }
  for (const node of nodes.values()) {
    if (node.id !== rootId && node.parent_id !== null) nodes.get(node.parent_id)?.children.push(node);
  }
  const root = nodes.get(rootId);
  if (!root) throw notFound();
  const strip = ({
    parent_id: _p,
    children,
    ...n
  }: OrganisationNode & { parent_id?: number | null }): OrganisationNode => ({
    ...n,
    children: children.map(strip),
  });
  return strip(root);
}

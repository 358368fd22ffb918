import { type AuditEntityQuery, type AuditEntryView, type AuditPageQuery, AuditPerm } from '@cc/contracts';
import { findEntityByRef } from '../entities/queries';
import { assertEntityInScope, entityScope } from '../entities/scope';
import { subtreeIds } from '../entities/tree';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { loadLearner } from '../learning/learner';
import { findResultOwner, listAuditEntries } from './queries';

type Row = Awaited<ReturnType<typeof listAuditEntries>>['rows'][number];

const json = (v: unknown): Record<string, unknown> | null =>
  v == null
    ? null
    : typeof v === 'string'
      ? (JSON.parse(v) as Record<string, unknown>)
      : (v as Record<string, unknown>);

export function presentAuditEntry(r: Row): AuditEntryView {
  return {
    id: Number(r.id),
    occurred_at: new Date(r.occurred_at).toISOString(),
    actor: { id: r.actor_user_id, name: r.actor_name },
    acting_as: r.acting_as_entity_id === null ? null : { id: r.acting_as_entity_id, name: r.acting_as_name },
    ip: r.ip,
    action: r.action,
    kind: r.subject_kind,
    subject: {
      id: r.subject_id,
      entity_id: r.subject_entity_id,
      user_id: r.subject_user_id,
      label: r.subject_label,
    },
    before: json(r.before),
    after: json(r.after),
    via: (json(r.via) as AuditEntryView['via']) ?? null,
  };
}

/** The entity ids the caller may read entries of: the scope's (null: no bound, a super admin not acting as anyone). */
async function scopeBound(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

/**
 * GET /audit/users/{id} (issue 35 §3; permission 24): a person's history, every change that concerned them (their
 * results, exemptions, role, type, grants), newest first. The person in scope (404 otherwise); the entries filed under
 * organisations outside the caller's scope (from before the person moved here) stay hidden.
 */
export async function userHistory(ctx: Ctx, ref: string, q: AuditPageQuery) {
  const { user } = await loadLearner(ctx, ref);
  authorize(ctx, [AuditPerm.viewHistory]);
  const { rows, total } = await listAuditEntries(
    ctx.db,
    { entityIds: await scopeBound(ctx), userId: user.id },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentAuditEntry), total };
}

/** GET /audit/results/{id} (24): one result's or exemption's history, deleted ones included; its learner in scope. */
export async function resultHistory(ctx: Ctx, id: number, q: AuditPageQuery) {
  const result = await findResultOwner(ctx.db, id);
  if (!result) throw notFound();
  await assertEntityInScope(ctx, result.primary_entity_id);
  authorize(ctx, [AuditPerm.viewHistory]);
  const { rows, total } = await listAuditEntries(
    ctx.db,
    { entityIds: await scopeBound(ctx), subject: { kinds: ['result', 'exemption'], id } },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentAuditEntry), total };
}

/**
 * GET /audit/entities/{id} (24): an organisation's history (id or slug, in scope: 404 otherwise), with its
 * sub-organisations' when deep (the default), filtered by date range, action and kind.
 */
export async function entityHistory(ctx: Ctx, ref: string, q: AuditEntityQuery) {
  actorOf(ctx); // 401 before anything is looked up
  const entity = await findEntityByRef(ctx.db, ref);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  authorize(ctx, [AuditPerm.viewHistory]);
  const entityIds = q.deep === false ? [entity.id] : await subtreeIds(ctx.db, entity.id);
  const { rows, total } = await listAuditEntries(
    ctx.db,
    { entityIds, kind: q.kind, action: q.action, from: q.from, to: q.to },
    { page: q.page, perPage: q.per_page },
  );
  return { data: rows.map(presentAuditEntry), total };
}

import type { BulkOperationView, ResultView } from '@cc/contracts';
import { ResultsMessages } from '@cc/contracts';
import { visibleCourseClause } from '../courses/visibility';
import { entityScope, inScope } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { actorOf, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import {
  entityRequiresEvidence,
  findResultInScope,
  type OperationRow,
  type ResultRow,
  usersInScope,
  visibleCourses,
} from './admin-queries';

/** The entity ids the caller may see, or null for no bound (super admin without acting-as). */
export async function scopeIds(ctx: Ctx): Promise<number[] | null> {
  const scope = await entityScope(ctx);
  return scope.accessible === 'all' ? null : [...scope.accessible];
}

/**
 * A live result whose learner is in the caller's scope; with `allowSelf` also the caller's own result. Anything
 * else, including another organisation's result, is the same 404 as a missing id.
 */
export async function loadResult(ctx: Ctx, id: number, o: { allowSelf?: boolean } = {}) {
  const actor = actorOf(ctx);
  const row = await findResultInScope(ctx.db, id, null);
  if (!row) throw notFound();
  const self = row.user_id === actor.userId;
  if (!(o.allowSelf && self) && !inScope(await entityScope(ctx), row.user_entity_id)) throw notFound();
  return { row, self };
}

/** The learner (by id) if they are the caller or in scope (404 otherwise). */
export async function loadLearnerById(ctx: Ctx, userId: number) {
  const actor = actorOf(ctx);
  const [user] = await usersInScope(ctx.db, [userId], userId === actor.userId ? null : await scopeIds(ctx));
  if (!user) throw notFound();
  return user;
}

/** True when the course is visible to the caller (courses/visibility.ts): a field error otherwise. */
export async function courseVisible(ctx: Ctx, courseId: number): Promise<boolean> {
  const { rows } = await visibleCourses(ctx.db, await visibleCourseClause(ctx), {
    ids: [courseId],
    page: 1,
    perPage: 1,
  });
  return rows.length === 1;
}

/** Evidence is required when the learner's entity, or an organisation above it, sets require_training_record_evidence. */
export async function evidenceRequired(ctx: Ctx, entityId: number): Promise<boolean> {
  for (const id of await ancestorIds(ctx.db, entityId))
    if (await entityRequiresEvidence(ctx.db, id)) return true;
  return false;
}

/** 'YYYY-MM-DD' as midnight UTC. */
export const dayStart = (date: string) => new Date(`${date}T00:00:00Z`);

/**
 * An exemption's end date, when one is sent, must be after today (issue 28 item 6): an exemption that has already
 * ended would excuse nobody. Its end is midnight UTC of that day; from then the requirement applies again.
 */
export function exemptionEndErrors(end: string | null | undefined, now: Date): string[] | null {
  if (!end) return null;
  return dayStart(end).getTime() <= now.getTime() ? [ResultsMessages.endNotFuture] : null;
}

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export function presentResult(r: ResultRow): ResultView {
  return {
    id: r.id,
    uuid: r.uuid,
    type: r.type,
    status: r.status,
    passed: r.passed,
    score: r.score === null ? null : Number(r.score),
    completed_at: new Date(r.completed_at).toISOString(),
    expires_at: iso(r.expires_at),
    notes: r.notes,
    certificate_suppressed: r.certificate_suppressed,
    admin_only: r.content_admin_only ?? false,
    user: { id: r.user_id, uuid: r.user_uuid, name: r.user_name },
    course: { id: r.course_id, title: r.course_title },
    content:
      r.content_id !== null && r.content_title !== null ? { id: r.content_id, title: r.content_title } : null,
    entity: { id: r.entity_id, name: r.entity_name },
    evidence:
      r.evidence_file_id !== null && r.evidence_name !== null
        ? {
            id: r.evidence_file_id,
            name: r.evidence_name,
            mime_type: r.evidence_mime_type ?? 'application/octet-stream',
            size_bytes: r.evidence_size_bytes ?? 0,
            url: `/api/results/${r.id}/evidence`,
          }
        : null,
    created_by: r.created_by_id !== null ? { id: r.created_by_id, name: r.created_by_name ?? '' } : null,
    approved_by: r.approved_by_id !== null ? { id: r.approved_by_id, name: r.approved_by_name ?? '' } : null,
    approved_at: iso(r.approved_at),
    bulk_operation_id: r.bulk_operation_id,
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
  };
}

export function presentOperation(o: OperationRow): BulkOperationView {
  return {
    id: o.id,
    uuid: o.uuid,
    type: o.type,
    course: { id: o.course_id, title: o.course_title },
    entity: { id: o.entity_id, name: o.entity_name },
    completed_at: new Date(o.completed_at).toISOString(),
    passed: o.passed,
    user_count: o.user_count,
    created_by: o.created_by_id !== null ? { id: o.created_by_id, name: o.created_by_name ?? '' } : null,
    created_at: new Date(o.created_at).toISOString(),
    deleted_at: iso(o.deleted_at),
    deleted_by: o.deleted_by_id !== null ? { id: o.deleted_by_id, name: o.deleted_by_name ?? '' } : null,
  };
}

/** Re-reads a result for the answer (after a write). */
export async function reloadResult(ctx: Ctx, id: number): Promise<ResultView> {
  const row = await findResultInScope(ctx.db, id, null);
  if (!row) throw notFound();
  return presentResult(row);
}

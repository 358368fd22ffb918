import type { AuditAction, AuditVia } from '@cc/contracts';
import { type AuditEntry, type AuditWho, recordAudit, recordAudits } from '../audit/record';
import type { Trx } from './queries';

/**
 * A result as the audit trail keeps it (issue 35 §3): the values a care provider is asked about, with the learner's
 * and the course's names copied in so the entry reads the same after either is renamed or removed.
 */
export async function resultSnapshot(trx: Trx, id: number): Promise<Record<string, unknown> | null> {
  return (await resultSnapshots(trx, [id]))[0] ?? null;
}

/** resultSnapshot of several results in one query (bulk adds and their undo), in id order. */
export async function resultSnapshots(trx: Trx, ids: readonly number[]): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .select([
      'r.id',
      'r.user_id',
      'u.primary_entity_id',
      'r.entity_id',
      'r.type',
      'r.status',
      'r.course_id',
      'c.title as course_label',
      'u.name as user_label',
      'r.passed',
      'r.score',
      'r.completed_at',
      'r.expires_at',
      'r.notes',
      'r.evidence_file_id',
      'r.deleted_at',
    ])
    .where('r.id', 'in', ids)
    .orderBy('r.id')
    .execute();
  const iso = (d: Date | string | null) => (d == null ? null : new Date(d).toISOString());
  return rows.map((row) => ({
    ...row,
    score: row.score === null ? null : Number(row.score),
    completed_at: iso(row.completed_at),
    expires_at: iso(row.expires_at),
    deleted_at: iso(row.deleted_at),
  }));
}

/**
 * Records one change of a result in its transaction: `before` and `after` are snapshots (resultSnapshot) taken in
 * the same transaction around the write. Exemptions are results of type exempt and read as "exemption".
 */
export async function auditResult(
  trx: Trx,
  ctx: AuditWho,
  action: AuditAction,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  via: AuditVia | null = null,
): Promise<void> {
  const entry = resultEntry(action, before, after, via);
  if (entry) await recordAudit(trx, ctx, entry);
}

/**
 * Records a result earned by taking training (online, offline, at a session, a document, a pathway), just written by
 * recordResult in this transaction: who is ctx's actor (the learner, the trainer who marked it, the system).
 */
export async function auditEarnedResult(
  trx: Trx,
  ctx: AuditWho,
  resultId: number,
  via: AuditVia,
): Promise<void> {
  await auditResult(trx, ctx, 'created', null, await resultSnapshot(trx, resultId), via);
}

/** Records the creation (before null), change or deletion (after null) of several results in one statement. */
export async function auditResults(
  trx: Trx,
  ctx: AuditWho,
  action: AuditAction,
  pairs: readonly {
    before: Record<string, unknown> | null;
    after: Record<string, unknown> | null;
    /** This change's own via, over the one given for all. */
    via?: AuditVia | null;
  }[],
  via: AuditVia | null = null,
): Promise<void> {
  await recordAudits(
    trx,
    ctx,
    pairs.flatMap((p) => resultEntry(action, p.before, p.after, p.via ?? via) ?? []),
  );
}

function resultEntry(
  action: AuditAction,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
  via: AuditVia | null,
): AuditEntry | null {
  const values = after ?? before;
  if (!values) return null;
  return {
    action,
    kind: values.type === 'exempt' ? 'exemption' : 'result',
    subjectId: values.id as number,
    // The learner's organisation now (a person's home answers for their record), else the one it was recorded in.
    entityId: (values.primary_entity_id as number | undefined) ?? (values.entity_id as number),
    userId: values.user_id as number,
    label: `${values.user_label}: ${values.course_label}`,
    before: strip(before),
    after: strip(after),
    via,
  };
}

/** The learner's current organisation is where the entry is filed, not part of the record's values. */
function strip(values: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!values) return null;
  const { primary_entity_id: _p, ...rest } = values;
  return rest;
}

import type { AuditAction } from '@cc/contracts';
import { recordAudit } from '../audit/record';
import type { Ctx } from '../http/context';
import type { Trx } from '../results/queries';

/** A compliance row as the audit trail keeps it (issue 35 §3), with its role's and course's names copied in. */
export async function ruleSnapshot(trx: Trx, id: number): Promise<Record<string, unknown> | null> {
  const row = await trx
    .selectFrom('compliance_rules as r')
    .innerJoin('entity_roles as ro', 'ro.id', 'r.role_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .select([
      'r.id',
      'r.entity_id',
      'r.role_id',
      'ro.name as role_label',
      'r.course_id',
      'c.title as course_label',
      'r.type as compliance_type',
      'r.validity_months',
      'r.due_at',
    ])
    .where('r.id', '=', id)
    .executeTakeFirst();
  return row ? { ...row } : null;
}

/** Records one change of a compliance row in its transaction (before: null on create, after: null on delete). */
export async function auditRule(
  trx: Trx,
  ctx: Ctx,
  action: AuditAction,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Promise<void> {
  const values = after ?? before;
  if (!values) return;
  await recordAudit(trx, ctx, {
    action,
    kind: 'compliance_rule',
    subjectId: values.id as number,
    entityId: values.entity_id as number,
    label: String(values.role_label),
    before,
    after,
  });
}

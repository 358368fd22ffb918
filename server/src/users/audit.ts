import type { AuditAction, AuditVia } from '@cc/contracts';
import type { Transaction } from 'kysely';
import { type AuditEntry, recordAudits } from '../audit/record';
import type { Database } from '../db/schema';
import type { Ctx } from '../http/context';

type Trx = Transaction<Database>;

/** The fields of a person the audit trail keeps (issue 35 §3): what decides their required courses and reach. */
const AUDITED = ['name', 'start_date', 'primary_entity_id', 'role_id', 'type_id', 'is_trainer'] as const;

/** A person's audited fields now, with their role's, type's and organisation's names copied in. */
export async function userSnapshot(trx: Trx, id: number): Promise<Record<string, unknown> | null> {
  return (await userSnapshots(trx, [id]))[0] ?? null;
}

/** userSnapshot of several people in one query (an import's batch), in id order. */
export async function userSnapshots(trx: Trx, ids: readonly number[]): Promise<Record<string, unknown>[]> {
  if (ids.length === 0) return [];
  const rows = await trx
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .leftJoin('entity_types as t', 't.id', 'u.type_id')
    .select([
      'u.id',
      'u.name',
      'u.start_date',
      'u.primary_entity_id',
      'e.name as primary_entity_label',
      'u.role_id',
      'r.name as role_label',
      'u.type_id',
      't.name as type_label',
      'u.is_trainer',
    ])
    .where('u.id', 'in', ids)
    .orderBy('u.id')
    .execute();
  return rows.map((row) => ({
    ...row,
    start_date: row.start_date == null ? null : new Date(row.start_date).toISOString().slice(0, 10),
  }));
}

/**
 * Records a person created or changed, in the change's transaction. An update that touched none of the audited fields
 * (preferences alone, an e-mail change waiting for its links) records nothing.
 */
export async function auditUser(
  trx: Trx,
  ctx: Ctx,
  action: AuditAction,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Promise<void> {
  await auditUsers(trx, ctx, action, [{ before, after }]);
}

/**
 * auditUser for several people in one statement (an import's batch, issue 35 §3), with how it came about (`via`:
 * applied or undone by the importer).
 */
export async function auditUsers(
  trx: Trx,
  ctx: Ctx,
  action: AuditAction,
  pairs: readonly { before: Record<string, unknown> | null; after: Record<string, unknown> | null }[],
  via: AuditVia | null = null,
): Promise<void> {
  const entries: AuditEntry[] = [];
  for (const { before, after } of pairs) {
    const values = after ?? before;
    if (!values) continue;
    if (
      action === 'updated' &&
      before &&
      after &&
      AUDITED.every((k) => JSON.stringify(before[k]) === JSON.stringify(after[k]))
    )
      continue;
    entries.push({
      action,
      kind: 'user',
      subjectId: values.id as number,
      entityId: values.primary_entity_id as number,
      userId: values.id as number,
      label: String(values.name),
      before,
      after,
      via,
    });
  }
  await recordAudits(trx, ctx, entries);
}

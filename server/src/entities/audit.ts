import type { AuditAction } from '@cc/contracts';
import type { Transaction } from 'kysely';
import { recordAudit } from '../audit/record';
import type { Database } from '../db/schema';
import type { Ctx } from '../http/context';

type Trx = Transaction<Database>;

/** Never kept in the trail: bookkeeping, and values that are secrets or too large to read in a history. */
const SKIPPED = new Set(['updated_at', 'created_at', 'logo', 'password_requirements_hash']);

/** The named columns of an entity, read (and locked) in the change's transaction. */
export async function entityColumns(
  trx: Trx,
  id: number,
  columns: readonly string[],
): Promise<Record<string, unknown> | null> {
  const row = (await trx
    .selectFrom('entities')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst()) as Record<string, unknown> | undefined;
  if (!row) return null;
  const out: Record<string, unknown> = { id: row.id, name: row.name };
  for (const c of columns)
    if (!SKIPPED.has(c) && c in row)
      out[c] = row[c] instanceof Date ? (row[c] as Date).toISOString() : row[c];
  return out;
}

/**
 * Records an organisation created or changed (its settings: expiry warning, starter period, evidence rule, parent...)
 * in the change's transaction: only the columns whose values moved.
 */
export async function auditEntity(
  trx: Trx,
  ctx: Ctx,
  action: AuditAction,
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): Promise<void> {
  const values = after ?? before;
  if (!values) return;
  let b = before;
  let a = after;
  if (before && after) {
    const moved = Object.keys(after).filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
    if (moved.length === 0) return;
    const keep = (v: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(v).filter(([k]) => k === 'id' || moved.includes(k)));
    b = keep(before);
    a = keep(after);
  }
  await recordAudit(trx, ctx, {
    action,
    kind: 'entity',
    subjectId: values.id as number,
    entityId: values.id as number,
    label: String(values.name),
    before: b,
    after: a,
  });
}

import type { AuditAction, AuditKind } from '@cc/contracts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Ctx } from '../http/context';

type Trx = Transaction<Database>;

/** One change, as the service that made it describes it. */
export interface AuditEntry {
  action: AuditAction;
  kind: AuditKind;
  subjectId: number | null;
  /** The organisation the subject belongs to: the tenant bound of every read of the trail. */
  entityId: number | null;
  /** The person concerned (a result's learner, the user changed), for a person's history. */
  userId?: number | null;
  /** The subject's name when written ("Alex Smith", "Care Worker"): the entry outlives the row it names. */
  label?: string;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
}

/** Dates become ISO strings, undefined is dropped: what JSON keeps is what the entry shows. */
function snapshot(values: Record<string, unknown> | null | undefined): string | null {
  return values ? JSON.stringify(values) : null;
}

/**
 * Appends an entry to the audit trail IN THE CHANGE'S TRANSACTION (issue 35 §3): the change and its entry commit or roll
 * back together, so a refused change (422, 409) leaves none. Who, acting as whom and from where come from ctx; a job or
 * a system change (no actor) is recorded with no actor.
 */
export async function recordAudit(trx: Trx, ctx: Ctx, entry: AuditEntry): Promise<void> {
  await recordAudits(trx, ctx, [entry]);
}

/** Several entries in one statement (a change that touches several subjects). */
export async function recordAudits(trx: Trx, ctx: Ctx, entries: readonly AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const actor = ctx.actor;
  await trx
    .insertInto('audit_entries')
    .values(
      entries.map((e) => ({
        occurred_at: ctx.clock(),
        actor_user_id: actor?.userId ?? null,
        actor_name: actor?.name ?? null,
        acting_as_entity_id: actor?.actingAs?.id ?? null,
        acting_as_name: actor?.actingAs?.name ?? null,
        ip: ctx.ip,
        action: e.action,
        subject_kind: e.kind,
        subject_id: e.subjectId,
        subject_entity_id: e.entityId,
        subject_user_id: e.userId ?? null,
        subject_label: e.label ?? '',
        before: snapshot(e.before),
        after: snapshot(e.after),
      })),
    )
    .execute();
}

import type { AuditAction, AuditKind, AuditVia } from '@cc/contracts';
import type { Transaction } from 'kysely';
import type { Database } from '../db/schema';
import type { Ctx } from '../http/context';

type Trx = Transaction<Database>;

/**
 * Who made a change, as the trail needs it: a request's or a job's ctx, or systemChange(now) for a change the product
 * made by itself (a pathway completed by the result that finished it, inside a listener with no request).
 */
export type AuditWho = Pick<Ctx, 'actor' | 'ip' | 'clock'>;

/** "The system", at `now`. */
export const systemChange = (now: Date): AuditWho => ({ actor: null, ip: null, clock: () => now });

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
  /**
   * How it came about when not by hand (contracts AuditVia): a result earned by taking training, marked at a session,
   * applied or undone by the importer. Omitted for a change made through a form.
   */
  via?: AuditVia | null;
}

/** A via with the fields it does not name set to null: `via({how: 'import', label: 'staff.csv'})`. */
export function auditVia(v: Pick<AuditVia, 'how'> & Partial<AuditVia>): AuditVia {
  return { how: v.how, label: v.label ?? null, ref: v.ref ?? null, detail: v.detail ?? null };
}

/** Rows per INSERT: 15 parameters a row stays well under PostgreSQL's 65,535 bound parameters of one statement. */
const ROWS_PER_STATEMENT = 2000;

/** Dates become ISO strings, undefined is dropped: what JSON keeps is what the entry shows. */
function snapshot(values: Record<string, unknown> | null | undefined): string | null {
  return values ? JSON.stringify(values) : null;
}

/**
 * Appends an entry to the audit trail IN THE CHANGE'S TRANSACTION (issue 35 §3): the change and its entry commit or roll
 * back together, so a refused change (422, 409) leaves none. Who, acting as whom and from where come from ctx; a job or
 * a system change (no actor) is recorded with no actor.
 */
export async function recordAudit(trx: Trx, ctx: AuditWho, entry: AuditEntry): Promise<void> {
  await recordAudits(trx, ctx, [entry]);
}

/**
 * Several entries in one statement (a change that touches several subjects: a bulk event, a batch of an import), split
 * only past ROWS_PER_STATEMENT rows; never one statement per entry.
 */
export async function recordAudits(trx: Trx, ctx: AuditWho, entries: readonly AuditEntry[]): Promise<void> {
  for (let i = 0; i < entries.length; i += ROWS_PER_STATEMENT)
    await insertEntries(trx, ctx, entries.slice(i, i + ROWS_PER_STATEMENT));
}

async function insertEntries(trx: Trx, ctx: AuditWho, entries: readonly AuditEntry[]): Promise<void> {
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
        via: e.via ? JSON.stringify(e.via) : null,
      })),
    )
    .execute();
}

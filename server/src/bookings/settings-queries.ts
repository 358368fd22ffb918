import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { DbOrTrx } from '../jobs/queries';

/** SQL of the training provider and delegate settings (STYLE.md "SQL in one place"). */

export async function findEntityBySlug(db: Db, slug: string) {
  return db
    .selectFrom('entities')
    .select(['id', 'slug', 'name', 'is_training_company'])
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export async function findTrainingProviderSettings(db: DbOrTrx, entityId: number) {
  return db
    .selectFrom('training_provider_settings')
    .selectAll()
    .where('entity_id', '=', entityId)
    .executeTakeFirst();
}

type ProviderValues = Partial<{
  delegate_auto_accept_period: number;
  delegate_removal_cutoff_hours: number;
  practical_min_delegates: number;
  practical_max_delegates: number;
  theory_min_delegates: number;
  theory_max_delegates: number;
  waitlist_claim_hours: number;
  waitlist_cutoff_hours: number;
  minimum_decision_hours: number;
  under_minimum_action: 'cancel' | 'confirm';
}>;

/**
 * One statement: the row is made with the sent fields (the rest take the column defaults, which are the contract's)
 * or only the sent fields change. The table's CHECKs (min <= max) decide against the merged row, so two concurrent
 * PATCHes (one raising a minimum, the other lowering the maximum) cannot together leave min > max: the second fails.
 */
export async function upsertTrainingProviderSettings(
  db: DbOrTrx,
  entityId: number,
  values: ProviderValues,
  now: Date,
) {
  return db
    .insertInto('training_provider_settings')
    .values({ entity_id: entityId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('entity_id').doUpdateSet({ ...values, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

type DelegateValues = Partial<{
  require_approval: boolean;
  allow_self_cancel: boolean;
  send_calendar_invites: boolean;
  notify_managers: boolean;
}>;

/** One statement: a new row holds `first` (every field), an existing row changes only the fields `sent`. */
export async function upsertDelegateSettings(
  db: DbOrTrx,
  entityId: number,
  values: { first: Required<DelegateValues>; sent: DelegateValues },
  now: Date,
) {
  return db
    .insertInto('delegate_settings')
    .values({ entity_id: entityId, ...values.first, updated_at: now })
    .onConflict((oc) => oc.column('entity_id').doUpdateSet({ ...values.sent, updated_at: now }))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Delegate settings that apply to each organisation: its own row, else the nearest ancestor's (a group sets them
 * once for its homes), else none (the caller uses the defaults).
 */
export async function effectiveDelegateSettings(db: DbOrTrx, entityIds: number[]) {
  if (entityIds.length === 0) return [];
  const { rows } = await sql<{
    entity_id: number;
    require_approval: boolean;
    allow_self_cancel: boolean;
    send_calendar_invites: boolean;
    notify_managers: boolean;
  }>`
    WITH RECURSIVE chain AS (
      SELECT e.id AS entity_id, e.id, e.parent_id, 0 AS depth FROM entities e WHERE e.id IN (${sql.join(entityIds)})
      UNION ALL
      SELECT c.entity_id, e.id, e.parent_id, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id
      WHERE c.depth < 50
    )
    SELECT DISTINCT ON (c.entity_id) c.entity_id, ds.require_approval, ds.allow_self_cancel, ds.send_calendar_invites,
      ds.notify_managers
    FROM chain c JOIN delegate_settings ds ON ds.entity_id = c.id
    ORDER BY c.entity_id, c.depth`.execute(db);
  return rows;
}

/** True for PostgreSQL's check_violation (the merged row broke a CHECK: min above max). */
export function isCheckViolation(error: unknown): boolean {
  return (error as { code?: string } | null)?.code === '23514';
}

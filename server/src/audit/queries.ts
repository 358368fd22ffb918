import { type AuditAction, DISPLAY_TIME_ZONE } from '@cc/contracts';
import { type ExpressionBuilder, sql } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { Database } from '../db/schema';

/** Which entries a history covers; every list is bounded by `entityIds` (null: no bound, a super admin). */
export interface AuditFilter {
  entityIds: number[] | null;
  userId?: number;
  /** One subject: a result's history covers it as a result and as an exemption. */
  subject?: { kinds: string[]; id: number };
  kind?: string;
  action?: AuditAction;
  /** UK calendar days, both included. */
  from?: string;
  to?: string;
}

/** The trail, newest first, one page of it and its total (SQL of audit_entries lives here only). */
export async function listAuditEntries(db: Db, f: AuditFilter, page: { page: number; perPage: number }) {
  const where = (eb: ExpressionBuilder<Database, 'audit_entries'>) => {
    const parts = [];
    if (f.entityIds) parts.push(eb('subject_entity_id', 'in', f.entityIds.length ? f.entityIds : [-1]));
    if (f.userId !== undefined) parts.push(eb('subject_user_id', '=', f.userId));
    if (f.subject)
      parts.push(eb.and([eb('subject_kind', 'in', f.subject.kinds), eb('subject_id', '=', f.subject.id)]));
    if (f.kind) parts.push(eb('subject_kind', '=', f.kind));
    if (f.action) parts.push(eb('action', '=', f.action));
    const day = sql<string>`(occurred_at AT TIME ZONE ${DISPLAY_TIME_ZONE})::date`;
    if (f.from) parts.push(eb(day, '>=', sql<string>`${f.from}::date`));
    if (f.to) parts.push(eb(day, '<=', sql<string>`${f.to}::date`));
    return eb.and(parts);
  };
  return pageWithTotal(
    db.selectFrom('audit_entries').where(where),
    (q) => q.selectAll().orderBy('occurred_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}

/** A result (deleted ones too: their history outlives them) and the organisation its learner belongs to. */
export async function findResultOwner(db: Db, id: number) {
  return db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.id', 'r.user_id', 'u.primary_entity_id'])
    .where('r.id', '=', id)
    .executeTakeFirst();
}

import { type SqlBool, sql } from 'kysely';
import {
  dueBySql,
  newStarterSql,
  outOfDateSql,
  pendingSql,
  requirementDueAtSql,
  requirementStatusSql,
} from '../compliance/queries';
import type { Db } from '../db/connect';
import type { ComplianceType } from '../db/schema';

/**
 * SQL of the dashboards (STYLE.md "SQL in one place"). Every read takes `entityIds`: the entities whose users (by
 * primary entity) a dashboard covers, already bounded by the caller's scope (service.ts). The cells are
 * user_requirements rows (the compliance core's per-user, per-course requirement with its latest result) and their
 * status is requirementStatusSql at `now` — the very expression the compliance report and the scores group — so
 * a dashboard's lists hold the people behind the report's figures.
 */

export interface CellScope {
  entityIds: number[];
  /** null: both compliance types. */
  type: ComplianceType | null;
  now: Date;
}

export type PeopleCondition = { kind: 'out_of_date' } | { kind: 'expiring'; days: number };

const DAY_MS = 86_400_000;

/** user_requirements ⋈ users ⋈ entities over the scope (index user_requirements_entity_idx: entity_id, type). */
function cells(db: Db, s: CellScope) {
  let q = db
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .innerJoin('entities as e', 'e.id', 'ur.entity_id')
    .where('ur.entity_id', 'in', s.entityIds);
  if (s.type) q = q.where('ur.type', '=', s.type);
  return q;
}

/**
 * The cells that put a person on a list. Out of date: contracts courseStatus's outOfDate in SQL (outOfDateSql):
 * expired, or never done past its due date; a new starter's course due by a date ahead and a record awaiting approval
 * are not (the report's expired + missing cells less those).
 * Expiring in N days: passed, not expired yet, expiring at most N days from now (an exemption with an end date
 * included: it lapses then).
 */
function matching(db: Db, s: CellScope, c: PeopleCondition) {
  const q = cells(db, s);
  if (c.kind === 'out_of_date') return q.where(outOfDateSql(s.now, 'ur', 'u', 'e'));
  const until = new Date(s.now.getTime() + c.days * DAY_MS);
  return q
    .where('ur.passed', '=', true)
    .where('ur.expires_at', '>', s.now)
    .where('ur.expires_at', '<=', until);
}

/** How many people and (person, course) cells a list holds. */
export async function countPeople(db: Db, s: CellScope, c: PeopleCondition) {
  if (s.entityIds.length === 0) return { people: 0, cells: 0 };
  const row = await matching(db, s, c)
    .select([
      sql<number>`count(DISTINCT ur.user_id)::int`.as('people'),
      sql<number>`count(*)::int`.as('cells'),
    ])
    .executeTakeFirstOrThrow();
  return { people: row.people, cells: row.cells };
}

/**
 * One page of a list's people: out of date, most courses first; expiring, soonest expiry first; then by name. Each
 * with the courses that put them there.
 */
export async function peoplePage(
  db: Db,
  s: CellScope,
  c: PeopleCondition,
  page: { limit: number; offset: number },
) {
  if (s.entityIds.length === 0) return [];
  let q = matching(db, s, c)
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'r.name as role_name',
      'e.id as entity_id',
      'e.name as entity_name',
      sql<number>`count(*)::int`.as('n'),
    ])
    .groupBy(['u.id', 'u.uuid', 'u.name', 'r.name', 'e.id', 'e.name']);
  q = c.kind === 'out_of_date' ? q.orderBy(sql`count(*)`, 'desc') : q.orderBy(sql`min(ur.expires_at)`, 'asc');
  const people = await q.orderBy('u.name').orderBy('u.id').limit(page.limit).offset(page.offset).execute();
  if (people.length === 0) return [];
  const courses = await matching(db, s, c)
    .innerJoin('courses as c', 'c.id', 'ur.course_id')
    .select([
      'ur.user_id',
      'c.id',
      'c.title',
      'ur.type',
      'ur.expires_at',
      // contracts courseStatus's facts (service.ts turns them into the one status).
      'ur.passed',
      'ur.exempt',
      'ur.then_passed',
      'ur.then_expires_at',
      'ur.then_exempt',
      'e.expiry_warning',
      dueBySql(s.now, requirementDueAtSql('ur'), 'u', 'e').as('due_by'),
      pendingSql(sql.ref('ur.user_id'), sql.ref('ur.course_id')).as('pending'),
    ])
    .where(
      'ur.user_id',
      'in',
      people.map((p) => p.id),
    )
    .orderBy(sql`ur.expires_at ASC NULLS FIRST`)
    .orderBy('c.title')
    .execute();
  const byUser = new Map<number, typeof courses>();
  for (const row of courses) byUser.set(row.user_id, [...(byUser.get(row.user_id) ?? []), row]);
  return people.map((p) => ({ ...p, courses: byUser.get(p.id) ?? [] }));
}

/** New starters (started less than their entity's starter_period days ago), newest first, with their figures. */
function newStarters(db: Db, s: CellScope) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .where('u.primary_entity_id', 'in', s.entityIds)
    .where(newStarterSql(s.now));
}

export async function countNewStarters(db: Db, s: CellScope) {
  if (s.entityIds.length === 0) return { people: 0, cells: 0 };
  const people = await newStarters(db, s)
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  const c = await cells(db, s)
    .where(newStarterSql(s.now))
    .select(sql<number>`count(*)::int`.as('n'))
    .executeTakeFirstOrThrow();
  return { people: people.n, cells: c.n };
}

export async function newStartersPage(db: Db, s: CellScope, page: { limit: number; offset: number }) {
  if (s.entityIds.length === 0) return [];
  const status = requirementStatusSql(s.now, 'ur', 'e');
  return newStarters(db, s)
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .leftJoin('user_requirements as ur', (j) => {
      const on = j.onRef('ur.user_id', '=', 'u.id');
      return s.type ? on.on('ur.type', '=', s.type) : on;
    })
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'u.start_date',
      'u.created_at',
      'r.name as role_name',
      'e.id as entity_id',
      'e.name as entity_name',
      sql<number>`count(ur.course_id)::int`.as('required'),
      sql<number>`count(ur.course_id) FILTER (WHERE ${status} IN ('in_date', 'expiring', 'exempt'))::int`.as(
        'compliant',
      ),
    ])
    .groupBy(['u.id', 'u.uuid', 'u.name', 'u.start_date', 'u.created_at', 'r.name', 'e.id', 'e.name'])
    .orderBy(sql`coalesce(u.start_date::timestamptz, u.created_at)`, 'desc')
    .orderBy('u.name')
    .orderBy('u.id')
    .limit(page.limit)
    .offset(page.offset)
    .execute();
}

/** Pending (awaiting approval) training records of the entities' users, by result type. */
export async function pendingByType(db: Db, entityIds: number[]) {
  if (entityIds.length === 0) return [];
  return db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select(['r.type', sql<number>`count(*)::int`.as('n')])
    .where('r.status', '=', 'pending')
    .where('r.deleted_at', 'is', null)
    .where('u.primary_entity_id', 'in', entityIds)
    .groupBy('r.type')
    .execute();
}

/** The snapshot figures of `month` ('YYYY-MM-01') per entity (summed over types unless one is chosen). */
export async function snapshotsOfMonth(
  db: Db,
  entityIds: number[],
  month: string,
  type: ComplianceType | null,
) {
  if (entityIds.length === 0) return [];
  let q = db
    .selectFrom('compliance_snapshots as s')
    .select([
      's.entity_id',
      sql<number>`sum(s.users)::int`.as('users'),
      sql<number>`sum(s.required)::int`.as('required'),
      sql<number>`sum(s.in_date)::int`.as('in_date'),
      sql<number>`sum(s.expiring)::int`.as('expiring'),
      sql<number>`sum(s.expired)::int`.as('expired'),
      sql<number>`sum(s.missing)::int`.as('missing'),
      sql<number>`sum(s.exempt)::int`.as('exempt'),
    ])
    .where('s.entity_id', 'in', entityIds)
    .where(sql<SqlBool>`s.month = ${month}::date`)
    .groupBy('s.entity_id');
  if (type) q = q.where('s.type', '=', type);
  return q.execute();
}

/**
 * Expiries per month from `now`'s month for `months` months: passed requirements whose expiry falls in the month and
 * after now (what will lapse unless renewed), and how many people they concern.
 */
export async function expiryForecast(db: Db, s: CellScope, months: number) {
  if (s.entityIds.length === 0) return [];
  const until = new Date(Date.UTC(s.now.getUTCFullYear(), s.now.getUTCMonth() + months, 1));
  return cells(db, s)
    .select([
      sql<string>`to_char(ur.expires_at AT TIME ZONE 'UTC', 'YYYY-MM')`.as('month'),
      sql<number>`count(*)::int`.as('expiries'),
      sql<number>`count(DISTINCT ur.user_id)::int`.as('people'),
    ])
    .where('ur.passed', '=', true)
    .where('ur.expires_at', '>', s.now)
    .where('ur.expires_at', '<', until)
    .groupBy(sql`to_char(ur.expires_at AT TIME ZONE 'UTC', 'YYYY-MM')`)
    .execute();
}

import type { ComplianceType } from '@cc/contracts';
import { sql } from 'kysely';
import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

type Executor = Db | Trx;

/**
 * The courses an organisation's rules may name and the starter matrix matches by title: its own, and those given to
 * it (entity_courses, switched on; a platform catalogue course only once published), the same courses POST
 * /compliance accepts for a job role of the organisation.
 */
export async function organisationCourses(db: Executor, orgId: number) {
  return db
    .selectFrom('courses as c')
    .select(['c.id', 'c.title'])
    .where((eb) =>
      eb.or([
        eb('c.entity_id', '=', orgId),
        eb.exists(
          eb
            .selectFrom('entity_courses as ec')
            .select('ec.course_id')
            .whereRef('ec.course_id', '=', 'c.id')
            .where('ec.entity_id', '=', orgId)
            .where('ec.enabled', '=', true)
            .where((w) => w.or([w('c.entity_id', 'is not', null), w('c.published', '=', true)])),
        ),
      ]),
    )
    .orderBy('c.id')
    .execute();
}

/** The organisation's own job roles (its sites use these). */
export async function organisationRoles(db: Executor, orgId: number) {
  return db
    .selectFrom('entity_roles')
    .select(['id', 'name'])
    .where('entity_id', '=', orgId)
    .orderBy('id')
    .execute();
}

/** The organisation's own course rules (not its sites' overrides). */
export async function organisationRules(db: Executor, orgId: number) {
  return db
    .selectFrom('compliance_rules')
    .select(['id', 'role_id', 'course_id', 'type', 'validity_months'])
    .where('entity_id', '=', orgId)
    .execute();
}

/** A new course of the organisation, unpublished: it has no content yet. */
export async function insertStarterCourse(trx: Trx, orgId: number, title: string): Promise<number> {
  const row = await trx
    .insertInto('courses')
    .values({ entity_id: orgId, title, short_title: null, category_id: null, published: false })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * A job role by name, on the organisation's unique (entity, lower(name)) index: a role of that name made meanwhile
 * by someone else is found and used, not duplicated.
 */
export async function insertStarterRole(
  trx: Trx,
  orgId: number,
  name: string,
  inspectable: boolean,
): Promise<{ id: number; created: boolean }> {
  const inserted = await sql<{ id: number }>`
    INSERT INTO entity_roles (entity_id, name, inspectable) VALUES (${orgId}, ${name}, ${inspectable})
    ON CONFLICT (entity_id, lower(name)) DO NOTHING RETURNING id`.execute(trx);
  const id = inserted.rows[0]?.id;
  if (id !== undefined) return { id, created: true };
  const found = await trx
    .selectFrom('entity_roles')
    .select('id')
    .where('entity_id', '=', orgId)
    .where(sql`lower(name)`, '=', name.toLowerCase())
    .executeTakeFirstOrThrow();
  return { id: found.id, created: false };
}

/** A course rule unless the organisation has one for the role and course (its unique key): the new id, else null. */
export async function insertStarterRule(
  trx: Trx,
  row: {
    entity_id: number;
    role_id: number;
    course_id: number;
    type: ComplianceType;
    validity_months: number | null;
    due_at: Date | null;
  },
  now: Date,
): Promise<number | null> {
  const inserted = await trx
    .insertInto('compliance_rules')
    .values({ ...row, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['entity_id', 'role_id', 'course_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted?.id ?? null;
}

import { randomBytes } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import { hashPassword } from '../src/auth/passwords';
import { createAccessToken } from '../src/auth/queries';
import type { Db } from '../src/db/connect';
import type { Database } from '../src/db/schema';

/**
 * The bench organisation, seeded with set-based SQL (INSERT … SELECT generate_series), the same on PGlite and
 * PostgreSQL: one level A group with 249 level B sites (250 entities), 5 roles, `courses` courses, compliance rules
 * at the group (each role requires 45 courses: 30 Mandatory, 15 Required, 12 months) with some site overrides,
 * `users` users spread over the sites, and ~65% of (user, course) pairs with a result — one latest result each,
 * completed over the last 2.5 years (a realistic mix of in date, expiring, expired, failed and exempt).
 */
/** The bench manager signs in with bench-manager@bench.test and this (the login-under-export probe). */
export const BENCH_MANAGER_PASSWORD = 'bench-Password1';

export interface Seeded {
  groupId: number;
  users: number;
  courses: number;
  results: number;
  token: string;
  managerId: number;
}

export async function seedBench(
  db: Db,
  o: { users: number; courses: number; log: (...a: unknown[]) => void },
): Promise<Seeded> {
  const run = (q: ReturnType<typeof sql>) => q.execute(db);
  const group = await db
    .insertInto('entities')
    .values({
      name: 'Bench Care Group',
      slug: 'bench-care-group',
      level: 'A',
      parent_id: null,
      focused_courses: '[]',
      whitelabel: '{}',
      password_requirements: null,
      expiry_warning: 30,
      starter_period: 90,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await run(sql`INSERT INTO entities (name, slug, level, parent_id, focused_courses, whitelabel, expiry_warning, starter_period)
    SELECT 'Bench Site ' || g, 'bench-site-' || g, 'B', ${group.id}, '[]', '{}', 30, 90 FROM generate_series(1, 249) g`);
  await run(sql`INSERT INTO entity_permissions (entity_id, permission_id)
    SELECT e.id, p.id FROM entities e CROSS JOIN permissions p WHERE e.id = ${group.id} OR e.parent_id = ${group.id}`);
  await run(
    sql`INSERT INTO entity_roles (entity_id, name) SELECT ${group.id}, 'Bench role ' || g FROM generate_series(1, 5) g`,
  );
  await run(sql`INSERT INTO courses (entity_id, title, published)
    SELECT ${group.id}, 'Course ' || lpad(g::text, 3, '0'), true FROM generate_series(1, ${o.courses}) g`);
  // Rules: role k requires courses whose (rank + 7k) mod courses < 45; the first 30 of them Mandatory.
  await run(sql`INSERT INTO compliance_rules (entity_id, role_id, course_id, type, validity_months)
    SELECT ${group.id}, r.id, c.id, CASE WHEN ((c.rn + 7 * r.rn) % ${o.courses}) < 30 THEN 'primary' ELSE 'secondary' END, 12
      FROM (SELECT id, row_number() OVER (ORDER BY id) rn FROM entity_roles WHERE entity_id = ${group.id}) r
     CROSS JOIN (SELECT id, row_number() OVER (ORDER BY id) rn FROM courses WHERE entity_id = ${group.id}) c
     WHERE ((c.rn + 7 * r.rn) % ${o.courses}) < 45`);
  // Overrides: every 5th site makes two of each role's courses valid for 24 months.
  await run(sql`INSERT INTO compliance_rules (entity_id, role_id, course_id, type, validity_months)
    SELECT e.id, cr.role_id, cr.course_id, cr.type, 24
      FROM entities e JOIN compliance_rules cr ON cr.entity_id = ${group.id}
     WHERE e.parent_id = ${group.id} AND e.id % 5 = 0 AND cr.course_id % 20 = 0`);
  const { rows: typeRows } = await sql<{ id: number }>`INSERT INTO entity_types (entity_id, name)
    VALUES (${group.id}, 'Bench manager') RETURNING id`.execute(db);
  const typeId = typeRows[0]!.id;
  await run(
    sql`INSERT INTO type_permissions (type_id, permission_id) SELECT ${typeId}, id FROM permissions WHERE id IN (12, 13, 14, 15, 16, 17)`,
  );
  await run(sql`INSERT INTO users (name, email, primary_entity_id, role_id, start_date, user_preferences, created_at)
    SELECT 'Bench User ' || lpad(g::text, 5, '0'), 'bench-' || g || '@bench.test',
           s.id, r.id, (DATE '2026-01-01' - (g % 1100))::date, '{}', now() - make_interval(days => g % 1100)
      FROM generate_series(1, ${o.users}) g
      JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM entities WHERE parent_id = ${group.id}) s ON s.k = g % 249
      JOIN (SELECT id, row_number() OVER (ORDER BY id) - 1 AS k FROM entity_roles WHERE entity_id = ${group.id}) r ON r.k = g % 5`);
  const manager = await db
    .insertInto('users')
    .values({
      name: 'Bench Manager',
      email: 'bench-manager@bench.test',
      primary_entity_id: group.id,
      type_id: typeId,
      user_preferences: '{}',
      password_hash: await hashPassword(BENCH_MANAGER_PASSWORD),
      password_changed_at: new Date(),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  // A super admin of the bench's own, in an organisation beside the bench organisation: without one, the server's
  // first start makes its setup admin in the first level A organisation (first-admin.ts), the bench organisation,
  // and the measures that run after that start would read one more person than those before it.
  const admin = await db
    .insertInto('entities')
    .values({
      name: 'Bench administration',
      slug: 'bench-administration',
      level: 'A',
      parent_id: null,
      focused_courses: '[]',
      whitelabel: '{}',
      expiry_warning: 30,
      starter_period: 90,
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('users')
    .values({
      name: 'Bench administrator',
      email: 'bench-admin@bench.test',
      primary_entity_id: admin.id,
      super_admin: true,
      user_preferences: '{}',
      password_hash: await hashPassword(randomBytes(24).toString('base64url')),
      password_changed_at: new Date(),
    } as never)
    .returning('id')
    .executeTakeFirstOrThrow();
  o.log('  seeding results…');
  // ~65% of pairs: a hash of (user, course) decides presence, pass/fail, exempt and age.
  await run(sql`INSERT INTO results (user_id, entity_id, course_id, type, passed, completed_at, expires_at)
    SELECT u.id, u.primary_entity_id, c.id,
           CASE WHEN h % 97 = 0 THEN 'exempt' ELSE 'elearning' END,
           (h % 19) <> 0,
           now() - make_interval(days => (h / 100) % 900),
           CASE WHEN (h % 19) = 0 OR h % 97 = 0 THEN NULL ELSE now() - make_interval(days => (h / 100) % 900) + interval '12 months' END
      FROM (SELECT id, primary_entity_id FROM users WHERE primary_entity_id <> ${group.id}) u
     CROSS JOIN (SELECT id FROM courses WHERE entity_id = ${group.id}) c
     CROSS JOIN LATERAL (SELECT abs(hashint8((u.id::bigint << 20) + c.id)) AS h) x
     WHERE h % 100 < 65`);
  await run(sql`INSERT INTO latest_results (user_id, course_id, result_id, passed, completed_at, expires_at, type, result_count)
    SELECT user_id, course_id, id, passed, completed_at, expires_at, type, 1 + id % 3 FROM results
     WHERE entity_id IN (SELECT id FROM entities WHERE parent_id = ${group.id})`);
  // VACUUM as well: the first reads would otherwise set the hint bits of 1.3M fresh rows inside the measures.
  await run(sql`VACUUM (ANALYZE)`);
  // The bench organisation's latest results (the tree's people), not the database's.
  const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM latest_results l
      JOIN users u ON u.id = l.user_id JOIN entities e ON e.id = u.primary_entity_id
     WHERE e.id = ${group.id} OR e.parent_id = ${group.id}`.execute(db);
  const token = await createAccessToken(db, { userId: manager.id, name: 'bench' });
  return {
    groupId: group.id,
    users: o.users,
    courses: o.courses,
    results: rows[0]?.n ?? 0,
    token: token.plainText,
    managerId: manager.id,
  };
}

/** The slug of every organisation the importer measure creates (`bench-importer-<stamp>`): how leftovers are found. */
export const IMPORTER_SLUG_PREFIX = 'bench-importer-';

/**
 * Removes the importer's organisations (any run's) and their people; also the people an earlier version of this
 * measure imported into the bench organisation itself (e-mails @import.test, and its `Bench importer` user and
 * types), so a database kept from before issue 36 reads the seeded people again. Set-based, in one transaction:
 * the people leaving go into a temporary table, and deletePeople removes them. Answers the people removed.
 */
export async function removeImporterData(db: Db, benchRootId: number): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const orgs = sql`(SELECT id FROM entities WHERE parent_id IS NULL AND slug LIKE ${`${IMPORTER_SLUG_PREFIX}%`})`;
    const { rows: imports } = await sql<{ id: number }>`
      SELECT id FROM imports WHERE entity_id IN ${orgs} OR entity_id = ${benchRootId}`.execute(trx);
    if (imports.length)
      await sql`DELETE FROM jobs WHERE name LIKE 'importer.%'
                 AND (payload->>'importId')::int = ANY(${imports.map((i) => i.id)}::int[])`.execute(trx);
    await sql`CREATE TEMPORARY TABLE bench_leaving ON COMMIT DROP AS
      SELECT id FROM users WHERE primary_entity_id IN ${orgs}
         OR (primary_entity_id = ${benchRootId} AND email LIKE '%@import.test')
         OR (primary_entity_id = ${benchRootId} AND email LIKE 'bench-importer-%@bench.test')`.execute(trx);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM bench_leaving`.execute(trx);
    const people = rows[0]?.n ?? 0;
    if (people) await deletePeople(trx);
    await sql`DELETE FROM imports WHERE entity_id = ${benchRootId}`.execute(trx);
    await sql`DELETE FROM entity_types WHERE entity_id = ${benchRootId} AND name LIKE 'Bench importer %'`.execute(
      trx,
    );
    await sql`DELETE FROM entities WHERE id IN ${orgs}`.execute(trx);
    return people;
  });
}

/**
 * VACUUM (ANALYZE) of the whole database, after the importer's 100,000 people came and went: the measures after it
 * read the bench's own tables, not the dead rows of the people removed (a kept database had grown to 200,000 dead rows
 * in users and 300,000 in user_requirements, and the matrix took twice as long). Production's autovacuum does this in
 * the background; the PostgreSQL the bench runs on may have it off (this machine's CI configuration does), and
 * autovacuum starting in the middle of a measure would disturb it anyway.
 */
export async function vacuumAfterImporter(db: Db): Promise<void> {
  await sql`VACUUM (ANALYZE)`.execute(db);
}

/**
 * Deletes the people of the temporary table bench_leaving, a statement a table. A plain DELETE of users runs each
 * foreign key's action once a person, and users has some 70 of them (two on results with no index: a scan of
 * results a person): 100,000 people took minutes. Instead each key's action is applied to its table for all of
 * them at once (ON DELETE CASCADE: a DELETE, SET NULL: an UPDATE; any other action with a row left fails the run),
 * so nothing refers to them any more, and then the people go with the per-row checks off (session_replication_role
 * replica, this transaction only; users has no delete trigger of its own). Without the right to that setting (not
 * a superuser), the plain DELETE.
 */
async function deletePeople(trx: Transaction<Database>) {
  const leaving = sql`(SELECT id FROM bench_leaving)`;
  const { rows: keys } = await sql<{ tab: string; col: string; action: string; cols: number }>`
    SELECT c.conrelid::regclass::text AS tab, quote_ident(a.attname) AS col, c.confdeltype AS action,
           cardinality(c.conkey) AS cols
      FROM pg_constraint c JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
     WHERE c.contype = 'f' AND c.confrelid = 'users'::regclass`.execute(trx);
  const { rows: su } = await sql<{ on: string }>`SELECT current_setting('is_superuser') AS on`.execute(trx);
  if (su[0]?.on !== 'on' || keys.some((k) => k.cols !== 1)) {
    await sql`DELETE FROM users WHERE id IN ${leaving}`.execute(trx);
    return;
  }
  await sql`ANALYZE bench_leaving`.execute(trx);
  for (const k of keys) {
    const where = sql`${sql.raw(k.col)} IN ${leaving}`;
    const table = sql.raw(k.tab);
    if (k.action === 'c') await sql`DELETE FROM ${table} WHERE ${where}`.execute(trx);
    else if (k.action === 'n')
      await sql`UPDATE ${table} SET ${sql.raw(k.col)} = NULL WHERE ${where}`.execute(trx);
    else if (k.action === 'd')
      await sql`UPDATE ${table} SET ${sql.raw(k.col)} = DEFAULT WHERE ${where}`.execute(trx);
    else {
      const { rows } = await sql`SELECT 1 FROM ${table} WHERE ${where} LIMIT 1`.execute(trx);
      if (rows.length) throw new Error(`${k.tab}.${k.col} still refers to a person the importer made`);
    }
  }
  await sql`SET LOCAL session_replication_role = replica`.execute(trx);
  await sql`DELETE FROM users WHERE id IN ${leaving}`.execute(trx);
  await sql`SET LOCAL session_replication_role = origin`.execute(trx);
}

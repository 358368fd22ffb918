import { type Kysely, sql } from 'kysely';

/**
 * 011_exempt_status: exempt is its own cell status (issue 10 §4), counted apart from in date.
 * - user_requirements.exempt: whether the (user, course)'s latest result is an exemption (latest_results.type =
 *   'exempt'), copied on write beside passed / expires_at, so the grouped figures (currentCounts, the compliance
 *   report) tell exempt cells from in-date ones without joining latest_results. The functions of migration 009 that
 *   copy the latest result are redefined to copy it too; the triggers keep calling them by name.
 * - compliance_snapshots.exempt: the monthly figure. Snapshots written before this migration counted exemptions in
 *   in_date (their scores are unchanged: a score counts in date + expiring + exempt).
 */
const copyLatest = `lr.passed, lr.expires_at, coalesce(lr.type = 'exempt', false)`;
const statements = [
  `ALTER TABLE user_requirements ADD COLUMN exempt boolean NOT NULL DEFAULT false`,
  `ALTER TABLE compliance_snapshots ADD COLUMN exempt integer NOT NULL DEFAULT 0`,
  `CREATE OR REPLACE FUNCTION user_requirements_refresh_users(ids integer[]) RETURNS void LANGUAGE sql AS $$
    DELETE FROM user_requirements WHERE user_id = ANY(ids);
    INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at, exempt)
    SELECT u.id, ecr.course_id, u.primary_entity_id, u.role_id, ecr.type, ${copyLatest}
      FROM users u JOIN effective_compliance_rules ecr
        ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id
      LEFT JOIN latest_results lr ON lr.user_id = u.id AND lr.course_id = ecr.course_id
     WHERE u.id = ANY(ids);
  $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_refresh_rules(entity_ids integer[], role_ids integer[],
    course_ids integer[]) RETURNS void LANGUAGE sql AS $$
    DELETE FROM user_requirements ur USING (
      SELECT DISTINCT u.id AS user_id, k.course_id
        FROM unnest(entity_ids, role_ids, course_ids) AS k(entity_id, role_id, course_id)
        JOIN entities e ON e.id = k.entity_id OR e.parent_id = k.entity_id
        JOIN users u ON u.primary_entity_id = e.id AND u.role_id = k.role_id) p
     WHERE ur.user_id = p.user_id AND ur.course_id = p.course_id;
    INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at, exempt)
    SELECT u.id, ecr.course_id, u.primary_entity_id, u.role_id, ecr.type, ${copyLatest}
      FROM (SELECT DISTINCT u.id AS user_id, k.course_id
              FROM unnest(entity_ids, role_ids, course_ids) AS k(entity_id, role_id, course_id)
              JOIN entities e ON e.id = k.entity_id OR e.parent_id = k.entity_id
              JOIN users u ON u.primary_entity_id = e.id AND u.role_id = k.role_id) p
      JOIN users u ON u.id = p.user_id
      JOIN effective_compliance_rules ecr
        ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id AND ecr.course_id = p.course_id
      LEFT JOIN latest_results lr ON lr.user_id = u.id AND lr.course_id = ecr.course_id;
  $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_users_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at, exempt)
    SELECT n.id, ecr.course_id, n.primary_entity_id, n.role_id, ecr.type, ${copyLatest}
      FROM new_rows n JOIN effective_compliance_rules ecr
        ON ecr.entity_id = n.primary_entity_id AND ecr.role_id = n.role_id
      LEFT JOIN latest_results lr ON lr.user_id = n.id AND lr.course_id = ecr.course_id;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_results_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET passed = n.passed, expires_at = n.expires_at, exempt = (n.type = 'exempt')
      FROM new_rows n WHERE ur.user_id = n.user_id AND ur.course_id = n.course_id
       AND (ur.passed IS DISTINCT FROM n.passed OR ur.expires_at IS DISTINCT FROM n.expires_at
            OR ur.exempt IS DISTINCT FROM (n.type = 'exempt'));
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_results_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET passed = NULL, expires_at = NULL, exempt = false
      FROM old_rows o WHERE ur.user_id = o.user_id AND ur.course_id = o.course_id
       AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.user_id = o.user_id AND n.course_id = o.course_id);
    UPDATE user_requirements ur SET passed = n.passed, expires_at = n.expires_at, exempt = (n.type = 'exempt')
      FROM new_rows n WHERE ur.user_id = n.user_id AND ur.course_id = n.course_id
       AND (ur.passed IS DISTINCT FROM n.passed OR ur.expires_at IS DISTINCT FROM n.expires_at
            OR ur.exempt IS DISTINCT FROM (n.type = 'exempt'));
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_results_old() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET passed = NULL, expires_at = NULL, exempt = false
      FROM old_rows o WHERE ur.user_id = o.user_id AND ur.course_id = o.course_id;
    RETURN NULL;
  END $$`,
  // Back-fill the flag of the exemptions already recorded.
  `UPDATE user_requirements ur SET exempt = true
     FROM latest_results lr
    WHERE lr.user_id = ur.user_id AND lr.course_id = ur.course_id AND lr.type = 'exempt'`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

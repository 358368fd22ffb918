import { type Kysely, sql } from 'kysely';

/**
 * 009_user_requirements: the effective requirements of every user, precomputed on write —
 * user_requirements(user_id, course_id, entity_id, role_id, type, passed, expires_at) = users ⋈
 * effective_compliance_rules on the user's primary entity and role, with the (user, course)'s latest result's
 * passed / expires_at (null: no result). The matrix reads it with plain index joins instead of evaluating the view
 * for every block; the compliance report's current figures are one scan of it (the cell status is still computed
 * at read time from expires_at and "now", so figures stay right as time passes without writes).
 *
 * It is kept by triggers, so EVERY write that changes it keeps it right in the same transaction (the services, the
 * bulk imports, the demo seed, the test factories, cascades):
 * - compliance_rules INSERT / UPDATE / DELETE: the (user, course) pairs of the rule's role in its entity and in that
 *   entity's children (which inherit it unless they override it) are recomputed from the view;
 * - users INSERT, and UPDATE of role_id / primary_entity_id (including ON DELETE SET NULL of a role): that user's rows;
 * - entities UPDATE of parent_id / level: the rows of that entity's users;
 * - latest_results INSERT / UPDATE / DELETE: that row's passed / expires_at;
 * - a deleted user: ON DELETE CASCADE.
 * Statement-level triggers with transition tables, so a bulk write recomputes in one set-based statement.
 */
const statements = [
  `CREATE TABLE user_requirements (
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    course_id integer NOT NULL,
    entity_id integer NOT NULL,
    role_id integer NOT NULL,
    type text NOT NULL,
    passed boolean,
    expires_at timestamptz,
    PRIMARY KEY (user_id, course_id)
  )`,
  `CREATE INDEX user_requirements_entity_idx ON user_requirements(entity_id, type)`,
  `CREATE INDEX user_requirements_course_idx ON user_requirements(course_id)`,
  // Recompute the rows of these users (all their courses).
  `CREATE FUNCTION user_requirements_refresh_users(ids integer[]) RETURNS void LANGUAGE sql AS $$
    DELETE FROM user_requirements WHERE user_id = ANY(ids);
    INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at)
    SELECT u.id, ecr.course_id, u.primary_entity_id, u.role_id, ecr.type, lr.passed, lr.expires_at
      FROM users u JOIN effective_compliance_rules ecr
        ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id
      LEFT JOIN latest_results lr ON lr.user_id = u.id AND lr.course_id = ecr.course_id
     WHERE u.id = ANY(ids);
  $$`,
  // Recompute the (user, course) pairs under these (entity, role, course) rule keys: the entity's own users and its
  // children's (a level B site inherits its parent's rules).
  `CREATE FUNCTION user_requirements_refresh_rules(entity_ids integer[], role_ids integer[], course_ids integer[])
    RETURNS void LANGUAGE sql AS $$
    DELETE FROM user_requirements ur USING (
      SELECT DISTINCT u.id AS user_id, k.course_id
        FROM unnest(entity_ids, role_ids, course_ids) AS k(entity_id, role_id, course_id)
        JOIN entities e ON e.id = k.entity_id OR e.parent_id = k.entity_id
        JOIN users u ON u.primary_entity_id = e.id AND u.role_id = k.role_id) p
     WHERE ur.user_id = p.user_id AND ur.course_id = p.course_id;
    INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at)
    SELECT u.id, ecr.course_id, u.primary_entity_id, u.role_id, ecr.type, lr.passed, lr.expires_at
      FROM (SELECT DISTINCT u.id AS user_id, k.course_id
              FROM unnest(entity_ids, role_ids, course_ids) AS k(entity_id, role_id, course_id)
              JOIN entities e ON e.id = k.entity_id OR e.parent_id = k.entity_id
              JOIN users u ON u.primary_entity_id = e.id AND u.role_id = k.role_id) p
      JOIN users u ON u.id = p.user_id
      JOIN effective_compliance_rules ecr
        ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id AND ecr.course_id = p.course_id
      LEFT JOIN latest_results lr ON lr.user_id = u.id AND lr.course_id = ecr.course_id;
  $$`,
  `CREATE FUNCTION user_requirements_rules_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM user_requirements_refresh_rules(array_agg(entity_id), array_agg(role_id), array_agg(course_id))
       FROM new_rows;
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION user_requirements_rules_old() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM user_requirements_refresh_rules(array_agg(entity_id), array_agg(role_id), array_agg(course_id))
       FROM old_rows;
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION user_requirements_rules_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    PERFORM user_requirements_refresh_rules(array_agg(entity_id), array_agg(role_id), array_agg(course_id))
       FROM (SELECT entity_id, role_id, course_id FROM new_rows
             UNION SELECT entity_id, role_id, course_id FROM old_rows) k;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER user_requirements_rules_insert AFTER INSERT ON compliance_rules
     REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_rules_new()`,
  `CREATE TRIGGER user_requirements_rules_update AFTER UPDATE ON compliance_rules
     REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
     FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_rules_changed()`,
  `CREATE TRIGGER user_requirements_rules_delete AFTER DELETE ON compliance_rules
     REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_rules_old()`,
  `CREATE FUNCTION user_requirements_users_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at)
    SELECT n.id, ecr.course_id, n.primary_entity_id, n.role_id, ecr.type, lr.passed, lr.expires_at
      FROM new_rows n JOIN effective_compliance_rules ecr
        ON ecr.entity_id = n.primary_entity_id AND ecr.role_id = n.role_id
      LEFT JOIN latest_results lr ON lr.user_id = n.id AND lr.course_id = ecr.course_id;
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION user_requirements_users_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE ids integer[];
  BEGIN
    SELECT array_agg(n.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
     WHERE n.role_id IS DISTINCT FROM o.role_id OR n.primary_entity_id IS DISTINCT FROM o.primary_entity_id;
    IF ids IS NOT NULL THEN PERFORM user_requirements_refresh_users(ids); END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER user_requirements_users_insert AFTER INSERT ON users
     REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_users_new()`,
  `CREATE TRIGGER user_requirements_users_update AFTER UPDATE ON users
     REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
     FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_users_changed()`,
  `CREATE FUNCTION user_requirements_entities_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE ids integer[];
  BEGIN
    SELECT array_agg(u.id) INTO ids FROM new_rows n JOIN old_rows o ON o.id = n.id
      JOIN users u ON u.primary_entity_id = n.id
     WHERE n.parent_id IS DISTINCT FROM o.parent_id OR n.level IS DISTINCT FROM o.level;
    IF ids IS NOT NULL THEN PERFORM user_requirements_refresh_users(ids); END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER user_requirements_entities_update AFTER UPDATE ON entities
     REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
     FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_entities_changed()`,
  // The latest result's passed / expires_at, copied on every latest_results write.
  `CREATE FUNCTION user_requirements_results_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET passed = n.passed, expires_at = n.expires_at
      FROM new_rows n WHERE ur.user_id = n.user_id AND ur.course_id = n.course_id
       AND (ur.passed IS DISTINCT FROM n.passed OR ur.expires_at IS DISTINCT FROM n.expires_at);
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION user_requirements_results_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET passed = NULL, expires_at = NULL
      FROM old_rows o WHERE ur.user_id = o.user_id AND ur.course_id = o.course_id
       AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.user_id = o.user_id AND n.course_id = o.course_id);
    UPDATE user_requirements ur SET passed = n.passed, expires_at = n.expires_at
      FROM new_rows n WHERE ur.user_id = n.user_id AND ur.course_id = n.course_id
       AND (ur.passed IS DISTINCT FROM n.passed OR ur.expires_at IS DISTINCT FROM n.expires_at);
    RETURN NULL;
  END $$`,
  `CREATE FUNCTION user_requirements_results_old() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET passed = NULL, expires_at = NULL
      FROM old_rows o WHERE ur.user_id = o.user_id AND ur.course_id = o.course_id;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER user_requirements_results_insert AFTER INSERT ON latest_results
     REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_results_new()`,
  `CREATE TRIGGER user_requirements_results_update AFTER UPDATE ON latest_results
     REFERENCING NEW TABLE AS new_rows OLD TABLE AS old_rows
     FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_results_changed()`,
  `CREATE TRIGGER user_requirements_results_delete AFTER DELETE ON latest_results
     REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION user_requirements_results_old()`,
  // Back-fill.
  `INSERT INTO user_requirements (user_id, course_id, entity_id, role_id, type, passed, expires_at)
    SELECT u.id, ecr.course_id, u.primary_entity_id, u.role_id, ecr.type, lr.passed, lr.expires_at
      FROM users u JOIN effective_compliance_rules ecr
        ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id
      LEFT JOIN latest_results lr ON lr.user_id = u.id AND lr.course_id = ecr.course_id`,
  `ANALYZE user_requirements`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

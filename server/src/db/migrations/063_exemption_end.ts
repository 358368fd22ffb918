import { type Kysely, sql } from 'kysely';

/**
 * 063_exemption_end (issue 28 §6): an exemption with an end date stops counting once the date has come; the person
 * x course is then what the person's OTHER results give (an older pass in date: in date; nothing: missing; an older
 * pass expired: expired), and a new exemption can be recorded.
 *
 * - latest_results / user_requirements gain `then_passed`, `then_expires_at`, `then_exempt`: when the latest result is
 *   an exemption with an end date, what counts once that end has come (the latest of the results without an end of
 *   their own: passes, fails, exemptions for good; null passed: none). The status (contracts cellStatusOf, its SQL
 *   twin compliance/queries.ts cellStatusSql and the matrix's statusCodeSql) reads them when the exemption's end
 *   (expires_at) is at or before `now`: the answer is right at midnight, before any job runs, with no per-cell
 *   subquery (the matrix reads the same row it always did).
 * - latest_results.expires_at of an exemption is when the person stops being exempt: the latest end of the exemptions
 *   with an end ranked above `then` (several overlapping ones keep the person exempt until the last ends).
 * - latest_results_refresh(users, courses, at): THE pick of the latest result, set-based over many (user, course)
 *   pairs (one statement; the caller holds the pairs' locks): the latest approved live result by passed, completion,
 *   id, leaving out exemptions ended at `at` (unless nothing else is left: then the row stays, with no `then`, and the
 *   status is missing); result_count counts every approved live result. A pair with none loses its row.
 * - results.exemption_ended_at: set once by the nightly job (results/exemption-end.ts) when it ends an exemption
 *   (audit entry, reminder to the person); a second run, or one beside it, finds it set and does nothing. Exemptions
 *   that ended before this migration are marked ended at their end date (no reminder years late).
 * - notifications.kind gains 'exemption_ended' (keeping 060's 'behind_reminder').
 */
const copyLatest = `lr.passed, lr.expires_at, coalesce(lr.type = 'exempt', false), lr.then_passed, lr.then_expires_at,
  coalesce(lr.then_exempt, false)`;
const urColumns = `(user_id, course_id, entity_id, role_id, type, passed, expires_at, exempt, then_passed,
  then_expires_at, then_exempt)`;
const urChanged = `(ur.passed IS DISTINCT FROM n.passed OR ur.expires_at IS DISTINCT FROM n.expires_at
  OR ur.exempt IS DISTINCT FROM (n.type = 'exempt') OR ur.then_passed IS DISTINCT FROM n.then_passed
  OR ur.then_expires_at IS DISTINCT FROM n.then_expires_at OR ur.then_exempt IS DISTINCT FROM n.then_exempt)`;
const urSet = `passed = n.passed, expires_at = n.expires_at, exempt = (n.type = 'exempt'), then_passed = n.then_passed,
  then_expires_at = n.then_expires_at, then_exempt = n.then_exempt`;
const urClear = `passed = NULL, expires_at = NULL, exempt = false, then_passed = NULL, then_expires_at = NULL,
  then_exempt = false`;

const statements = [
  `ALTER TABLE latest_results ADD COLUMN then_passed boolean`,
  `ALTER TABLE latest_results ADD COLUMN then_expires_at timestamptz`,
  `ALTER TABLE latest_results ADD COLUMN then_exempt boolean NOT NULL DEFAULT false`,
  `ALTER TABLE user_requirements ADD COLUMN then_passed boolean`,
  `ALTER TABLE user_requirements ADD COLUMN then_expires_at timestamptz`,
  `ALTER TABLE user_requirements ADD COLUMN then_exempt boolean NOT NULL DEFAULT false`,
  `ALTER TABLE results ADD COLUMN exemption_ended_at timestamptz`,
  // The nightly job's scan: exemptions with an end, not yet ended.
  `CREATE INDEX results_exemption_end_idx ON results(expires_at)
     WHERE type = 'exempt' AND exemption_ended_at IS NULL AND deleted_at IS NULL`,
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
     CHECK (kind IN ('expiry_reminder', 'manager_digest', 'booking', 'care_certificate', 'message',
                     'document_reminder', 'due_reminder', 'behind_reminder', 'exemption_ended'))`,
  `CREATE FUNCTION latest_results_refresh(user_ids integer[], course_ids integer[], at timestamptz)
    RETURNS void LANGUAGE sql AS $$
    WITH p AS (
      SELECT DISTINCT user_id, course_id FROM unnest(user_ids, course_ids) AS p(user_id, course_id)),
    live AS (
      SELECT r.id, r.user_id, r.course_id, r.passed, r.completed_at, r.expires_at, r.type,
             (r.type = 'exempt' AND r.expires_at IS NOT NULL) AS dated,
             coalesce(r.type = 'exempt' AND r.expires_at <= at, false) AS ended
        FROM results r JOIN p ON p.user_id = r.user_id AND p.course_id = r.course_id
       WHERE r.status = 'approved' AND r.deleted_at IS NULL),
    top AS (
      SELECT DISTINCT ON (user_id, course_id) *, count(*) OVER (PARTITION BY user_id, course_id)::int AS result_count
        FROM live ORDER BY user_id, course_id, ended ASC, passed DESC, completed_at DESC, id DESC),
    fallback AS (
      SELECT DISTINCT ON (user_id, course_id) * FROM live WHERE NOT dated
       ORDER BY user_id, course_id, passed DESC, completed_at DESC, id DESC),
    lapse AS (
      SELECT l.user_id, l.course_id, max(l.expires_at) AS ends_at
        FROM live l LEFT JOIN fallback f ON f.user_id = l.user_id AND f.course_id = l.course_id
       WHERE l.dated AND (f.id IS NULL OR (l.passed, l.completed_at, l.id) > (f.passed, f.completed_at, f.id))
       GROUP BY l.user_id, l.course_id),
    pick AS (
      SELECT t.user_id, t.course_id, t.id AS result_id, t.passed, t.completed_at, t.type, t.result_count,
             CASE WHEN t.dated THEN coalesce(x.ends_at, t.expires_at) ELSE t.expires_at END AS expires_at,
             CASE WHEN t.dated THEN f.passed END AS then_passed,
             CASE WHEN t.dated THEN f.expires_at END AS then_expires_at,
             coalesce(t.dated AND f.type = 'exempt', false) AS then_exempt
        FROM top t
        LEFT JOIN fallback f ON f.user_id = t.user_id AND f.course_id = t.course_id
        LEFT JOIN lapse x ON x.user_id = t.user_id AND x.course_id = t.course_id),
    gone AS (
      DELETE FROM latest_results l USING p
       WHERE l.user_id = p.user_id AND l.course_id = p.course_id
         AND NOT EXISTS (SELECT 1 FROM pick WHERE pick.user_id = p.user_id AND pick.course_id = p.course_id))
    INSERT INTO latest_results (user_id, course_id, result_id, passed, completed_at, expires_at, type, result_count,
                                then_passed, then_expires_at, then_exempt, updated_at)
    SELECT user_id, course_id, result_id, passed, completed_at, expires_at, type, result_count,
           then_passed, then_expires_at, then_exempt, at FROM pick
    ON CONFLICT (user_id, course_id) DO UPDATE SET result_id = EXCLUDED.result_id, passed = EXCLUDED.passed,
      completed_at = EXCLUDED.completed_at, expires_at = EXCLUDED.expires_at, type = EXCLUDED.type,
      result_count = EXCLUDED.result_count, then_passed = EXCLUDED.then_passed,
      then_expires_at = EXCLUDED.then_expires_at, then_exempt = EXCLUDED.then_exempt,
      updated_at = EXCLUDED.updated_at
     WHERE (latest_results.result_id, latest_results.passed, latest_results.completed_at, latest_results.type,
            latest_results.result_count, latest_results.then_exempt)
           IS DISTINCT FROM (EXCLUDED.result_id, EXCLUDED.passed, EXCLUDED.completed_at, EXCLUDED.type,
            EXCLUDED.result_count, EXCLUDED.then_exempt)
        OR latest_results.expires_at IS DISTINCT FROM EXCLUDED.expires_at
        OR latest_results.then_passed IS DISTINCT FROM EXCLUDED.then_passed
        OR latest_results.then_expires_at IS DISTINCT FROM EXCLUDED.then_expires_at;
  $$`,
  // user_requirements copies the three new columns beside passed / expires_at / exempt (migrations 009, 011).
  `CREATE OR REPLACE FUNCTION user_requirements_refresh_users(ids integer[]) RETURNS void LANGUAGE sql AS $$
    DELETE FROM user_requirements WHERE user_id = ANY(ids);
    INSERT INTO user_requirements ${urColumns}
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
    INSERT INTO user_requirements ${urColumns}
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
    INSERT INTO user_requirements ${urColumns}
    SELECT n.id, ecr.course_id, n.primary_entity_id, n.role_id, ecr.type, ${copyLatest}
      FROM new_rows n JOIN effective_compliance_rules ecr
        ON ecr.entity_id = n.primary_entity_id AND ecr.role_id = n.role_id
      LEFT JOIN latest_results lr ON lr.user_id = n.id AND lr.course_id = ecr.course_id;
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_results_new() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET ${urSet}
      FROM new_rows n WHERE ur.user_id = n.user_id AND ur.course_id = n.course_id AND ${urChanged};
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_results_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET ${urClear}
      FROM old_rows o WHERE ur.user_id = o.user_id AND ur.course_id = o.course_id
       AND NOT EXISTS (SELECT 1 FROM new_rows n WHERE n.user_id = o.user_id AND n.course_id = o.course_id);
    UPDATE user_requirements ur SET ${urSet}
      FROM new_rows n WHERE ur.user_id = n.user_id AND ur.course_id = n.course_id AND ${urChanged};
    RETURN NULL;
  END $$`,
  `CREATE OR REPLACE FUNCTION user_requirements_results_old() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE user_requirements ur SET ${urClear}
      FROM old_rows o WHERE ur.user_id = o.user_id AND ur.course_id = o.course_id;
    RETURN NULL;
  END $$`,
  // Exemptions that ended before this migration: ended at their end date, without a reminder.
  `UPDATE results SET exemption_ended_at = expires_at
    WHERE type = 'exempt' AND expires_at <= now() AND exemption_ended_at IS NULL`,
  // Every pair with an exemption is picked again by the new rule (its then_* filled, ended exemptions left out).
  `SELECT latest_results_refresh(array_agg(user_id), array_agg(course_id), now())
     FROM (SELECT DISTINCT user_id, course_id FROM results WHERE type = 'exempt') x`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

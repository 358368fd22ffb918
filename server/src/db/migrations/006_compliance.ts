import { type Kysely, sql } from 'kysely';

/**
 * The compliance engine (issue 5, ARCHITECTURE "Compliance rules").
 *
 * - compliance_rules: spec 2 §3 "Compliance" — (entity, role, course) with type primary (Mandatory) or secondary
 *   (Required) and a validity in months (null: a pass never expires).
 * - effective_compliance_rules: the rows that apply to the users of each entity — its own rows, plus its parent's
 *   (level A) rows for the same role and course unless the entity overrides them with its own row. Every consumer
 *   (matrix, reports, scores, expiry dating) reads this view, so inheritance has one definition.
 * - latest_results.result_count: how many approved results the (user, course) has, kept on write with the row
 *   (the matrix cell's result_count) so the matrix never counts history.
 * - compliance_snapshots: the monthly figures of each entity (its own users, one row per compliance type), written
 *   by the snapshot job at each month end so a 12-month trend is 12 × entities rows, not a replay of history.
 */
const statements = [
  `CREATE TABLE compliance_rules (
    id serial PRIMARY KEY,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    role_id integer NOT NULL REFERENCES entity_roles(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    type text NOT NULL CHECK (type IN ('primary','secondary')),
    validity_months integer CHECK (validity_months IS NULL OR validity_months BETWEEN 1 AND 600),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (entity_id, role_id, course_id)
  )`,
  `CREATE INDEX compliance_rules_role_idx ON compliance_rules(role_id, course_id)`,
  `CREATE INDEX compliance_rules_course_idx ON compliance_rules(course_id)`,
  `CREATE VIEW effective_compliance_rules AS
    SELECT r.entity_id, r.role_id, r.course_id, r.type, r.validity_months, r.id AS rule_id, false AS inherited
      FROM compliance_rules r
    UNION ALL
    SELECT e.id AS entity_id, p.role_id, p.course_id, p.type, p.validity_months, p.id AS rule_id, true AS inherited
      FROM entities e
      JOIN compliance_rules p ON p.entity_id = e.parent_id
     WHERE e.level = 'B'
       AND NOT EXISTS (
         SELECT 1 FROM compliance_rules o
          WHERE o.entity_id = e.id AND o.role_id = p.role_id AND o.course_id = p.course_id)`,
  `ALTER TABLE latest_results ADD COLUMN result_count integer NOT NULL DEFAULT 1`,
  `CREATE INDEX users_entity_role_idx ON users(primary_entity_id, role_id)`,
  `CREATE TABLE compliance_snapshots (
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    month date NOT NULL,
    type text NOT NULL CHECK (type IN ('primary','secondary')),
    users integer NOT NULL,
    required integer NOT NULL,
    in_date integer NOT NULL,
    expiring integer NOT NULL,
    expired integer NOT NULL,
    missing integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (entity_id, month, type)
  )`,
  `CREATE INDEX compliance_snapshots_month_idx ON compliance_snapshots(month)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';
// Imported, not read from disk: the bundle (scripts/bundle-server.mjs) carries the data, whatever its own path.
// The data as this migration shipped it, frozen (030-data/): later corrections of the standards come in later
// migrations (042_care_certificate_criteria) from care-certificate/standards/, so this one seeds the same on every run.
import standards2015 from './030-data/2015.json';
import standards2025 from './030-data/2025.json';

/**
 * 030_care_certificates (issue 16 "The Care Certificate"; contracts care-certificate.ts).
 *
 * - care_certificate_versions → _standards → _outcomes → _criteria: the standards as versioned data, seeded here
 *   from 030-data/{2015,2025}.json (care-certificate/standards/SOURCES.md says what was checked) and edited by super
 *   admins afterwards. `standard_id` on a criterion is denormalised from its outcome for the per-standard queries.
 *   `requires_observation`: seeded true for criteria that begin "Demonstrate" (observed in the work setting).
 * - course_care_certificate_criteria: a course's passed results evidence these criteria (automatic evidence).
 * - care_certificate_settings: per organisation, absent = inherited from the nearest ancestor, else the defaults.
 * - care_certificates: one user's certificate of one version. One live (non-historical) certificate per user and
 *   version, by the unique index (concurrent assignments: one wins, the other gets 409).
 * - care_certificate_standard_states: one row per (certificate, standard of its version), made at assignment; the
 *   workflow state. Approvals move it only in guarded single UPDATEs (WHERE state = the expected one).
 * - care_certificate_decisions: the append-only history of submissions, approvals and rejections.
 * - care_certificate_evidence (+ _criteria): an uploaded file, or a result linked by hand.
 * - care_certificate_observations (+ _criteria): append-only once approved. The trigger refuses any UPDATE of an
 *   approved row (the service checks first and answers 409; the trigger is the backstop for every other path);
 *   `supersedes_id` is UNIQUE so an observation is corrected once (a correction of the correction supersedes it).
 * - notifications.kind gains 'care_certificate' (the notify_all_standards_selected notice to managers).
 */
const statements = [
  `CREATE TABLE care_certificate_versions (
    id serial PRIMARY KEY,
    code text NOT NULL UNIQUE,
    title text NOT NULL,
    effective_from date,
    is_default boolean NOT NULL DEFAULT false,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX care_certificate_versions_default_uq ON care_certificate_versions(is_default) WHERE is_default`,
  `CREATE TABLE care_certificate_standards (
    id serial PRIMARY KEY,
    version_id integer NOT NULL REFERENCES care_certificate_versions(id) ON DELETE CASCADE,
    number integer NOT NULL CHECK (number >= 1),
    title text NOT NULL,
    UNIQUE (version_id, number)
  )`,
  `CREATE TABLE care_certificate_outcomes (
    id serial PRIMARY KEY,
    standard_id integer NOT NULL REFERENCES care_certificate_standards(id) ON DELETE CASCADE,
    code text NOT NULL,
    title text,
    position integer NOT NULL DEFAULT 0,
    UNIQUE (standard_id, code)
  )`,
  `CREATE TABLE care_certificate_criteria (
    id serial PRIMARY KEY,
    standard_id integer NOT NULL REFERENCES care_certificate_standards(id) ON DELETE CASCADE,
    outcome_id integer NOT NULL REFERENCES care_certificate_outcomes(id) ON DELETE CASCADE,
    code text NOT NULL,
    text text NOT NULL,
    requires_observation boolean NOT NULL DEFAULT false,
    position integer NOT NULL DEFAULT 0,
    UNIQUE (standard_id, code)
  )`,
  `CREATE INDEX care_certificate_criteria_outcome_idx ON care_certificate_criteria(outcome_id)`,
  `CREATE TABLE course_care_certificate_criteria (
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    criterion_id integer NOT NULL REFERENCES care_certificate_criteria(id) ON DELETE CASCADE,
    PRIMARY KEY (course_id, criterion_id)
  )`,
  `CREATE INDEX course_care_certificate_criteria_criterion_idx ON course_care_certificate_criteria(criterion_id)`,
  `CREATE TABLE care_certificate_settings (
    entity_id integer PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    expected_weeks integer NOT NULL DEFAULT 12 CHECK (expected_weeks BETWEEN 1 AND 104),
    default_version_id integer REFERENCES care_certificate_versions(id) ON DELETE SET NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE TABLE care_certificates (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    version_id integer NOT NULL REFERENCES care_certificate_versions(id) ON DELETE RESTRICT,
    historical boolean NOT NULL DEFAULT false,
    status text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress', 'complete')),
    started_on date NOT NULL,
    expected_by date,
    completed_on date,
    provider text,
    assessor_name text,
    notes text,
    assigned_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((status = 'complete') = (completed_on IS NOT NULL)),
    CHECK (NOT historical OR status = 'complete')
  )`,
  `CREATE UNIQUE INDEX care_certificates_live_uq ON care_certificates(user_id, version_id) WHERE NOT historical`,
  `CREATE INDEX care_certificates_user_idx ON care_certificates(user_id)`,
  `CREATE INDEX care_certificates_open_idx ON care_certificates(expected_by) WHERE status = 'in_progress'`,
  `CREATE TABLE care_certificate_standard_states (
    certificate_id integer NOT NULL REFERENCES care_certificates(id) ON DELETE CASCADE,
    standard_id integer NOT NULL REFERENCES care_certificate_standards(id) ON DELETE CASCADE,
    state text NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'awaiting_approval', 'approved')),
    submitted_at timestamptz,
    submitted_by integer REFERENCES users(id) ON DELETE SET NULL,
    decided_at timestamptz,
    decided_by integer REFERENCES users(id) ON DELETE SET NULL,
    rejection_reasons text,
    PRIMARY KEY (certificate_id, standard_id)
  )`,
  `CREATE INDEX care_certificate_standard_states_awaiting_idx ON care_certificate_standard_states(submitted_at)
     WHERE state = 'awaiting_approval'`,
  `CREATE TABLE care_certificate_decisions (
    id serial PRIMARY KEY,
    certificate_id integer NOT NULL REFERENCES care_certificates(id) ON DELETE CASCADE,
    standard_id integer NOT NULL REFERENCES care_certificate_standards(id) ON DELETE CASCADE,
    action text NOT NULL CHECK (action IN ('submitted', 'approved', 'rejected')),
    reasons text,
    actor_id integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX care_certificate_decisions_certificate_idx ON care_certificate_decisions(certificate_id, created_at)`,
  `CREATE TABLE care_certificate_evidence (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    certificate_id integer NOT NULL REFERENCES care_certificates(id) ON DELETE CASCADE,
    kind text NOT NULL CHECK (kind IN ('file', 'result')),
    file_id integer REFERENCES files(id) ON DELETE CASCADE,
    result_id integer REFERENCES results(id) ON DELETE CASCADE,
    description text,
    added_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((kind = 'file' AND file_id IS NOT NULL AND result_id IS NULL)
        OR (kind = 'result' AND result_id IS NOT NULL AND file_id IS NULL))
  )`,
  `CREATE INDEX care_certificate_evidence_certificate_idx ON care_certificate_evidence(certificate_id)`,
  `CREATE TABLE care_certificate_evidence_criteria (
    evidence_id integer NOT NULL REFERENCES care_certificate_evidence(id) ON DELETE CASCADE,
    criterion_id integer NOT NULL REFERENCES care_certificate_criteria(id) ON DELETE RESTRICT,
    PRIMARY KEY (evidence_id, criterion_id)
  )`,
  `CREATE INDEX care_certificate_evidence_criteria_criterion_idx ON care_certificate_evidence_criteria(criterion_id)`,
  `CREATE TABLE care_certificate_observations (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    certificate_id integer NOT NULL REFERENCES care_certificates(id) ON DELETE CASCADE,
    assessor_id integer REFERENCES users(id) ON DELETE SET NULL,
    assessor_name text NOT NULL,
    observed_at timestamptz NOT NULL,
    place text NOT NULL,
    shift text NOT NULL CHECK (shift IN ('early', 'late', 'day', 'long_day', 'night', 'other')),
    observed text NOT NULL,
    outcome text NOT NULL CHECK (outcome IN ('competent', 'not_yet_competent')),
    approved_at timestamptz,
    approved_by integer REFERENCES users(id) ON DELETE SET NULL,
    supersedes_id integer UNIQUE REFERENCES care_certificate_observations(id) ON DELETE RESTRICT,
    correction_reason text,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    CHECK ((supersedes_id IS NULL) = (correction_reason IS NULL))
  )`,
  `CREATE INDEX care_certificate_observations_certificate_idx ON care_certificate_observations(certificate_id)`,
  `CREATE TABLE care_certificate_observation_criteria (
    observation_id integer NOT NULL REFERENCES care_certificate_observations(id) ON DELETE CASCADE,
    criterion_id integer NOT NULL REFERENCES care_certificate_criteria(id) ON DELETE RESTRICT,
    PRIMARY KEY (observation_id, criterion_id)
  )`,
  `CREATE INDEX care_certificate_observation_criteria_criterion_idx ON care_certificate_observation_criteria(criterion_id)`,
  // The append-only backstop: an approved observation's row never changes (its links are guarded by the service).
  `CREATE FUNCTION care_certificate_observation_locked() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF OLD.approved_at IS NOT NULL THEN
      RAISE EXCEPTION 'approved observation % is append-only', OLD.id USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
  END $$`,
  `CREATE TRIGGER care_certificate_observation_locked BEFORE UPDATE ON care_certificate_observations
     FOR EACH ROW EXECUTE FUNCTION care_certificate_observation_locked()`,
  // notifications.kind gains 'care_certificate': managers told when every standard is selected for approval
  // (entities.notify_all_standards_selected; care-certificate/notify.ts), in-app and by e-mail.
  `ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`,
  `ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
     CHECK (kind IN ('expiry_reminder', 'manager_digest', 'booking', 'care_certificate'))`,
];

interface SeedCriterion {
  code: string;
  text: string;
}
interface SeedOutcome {
  code: string;
  title: string | null;
  criteria: SeedCriterion[];
}
interface SeedStandard {
  number: number;
  title: string;
  outcomes: SeedOutcome[];
}
interface SeedVersion {
  version: string;
  title: string;
  effective_from: string | null;
  standards: SeedStandard[];
}

/** Inserts one version's tree. Exported for tests that need a fresh copy; the migration seeds 2015 and 2025. */
export async function seedVersion(db: Kysely<unknown>, v: SeedVersion, isDefault: boolean): Promise<number> {
  const version = await sql<{ id: number }>`
    INSERT INTO care_certificate_versions (code, title, effective_from, is_default)
    VALUES (${v.version}, ${v.title}, ${v.effective_from}, ${isDefault}) RETURNING id`.execute(db);
  const versionId = version.rows[0].id;
  for (const s of v.standards) {
    const standard = await sql<{ id: number }>`
      INSERT INTO care_certificate_standards (version_id, number, title)
      VALUES (${versionId}, ${s.number}, ${s.title}) RETURNING id`.execute(db);
    const standardId = standard.rows[0].id;
    for (const [oi, o] of s.outcomes.entries()) {
      const outcome = await sql<{ id: number }>`
        INSERT INTO care_certificate_outcomes (standard_id, code, title, position)
        VALUES (${standardId}, ${o.code}, ${o.title}, ${oi}) RETURNING id`.execute(db);
      for (const [ci, c] of o.criteria.entries()) {
        await sql`
          INSERT INTO care_certificate_criteria (standard_id, outcome_id, code, text, requires_observation, position)
          VALUES (${standardId}, ${outcome.rows[0].id}, ${c.code}, ${c.text}, ${/^demonstrate\b/i.test(c.text)}, ${ci})`.execute(
          db,
        );
      }
    }
  }
  return versionId;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
  await seedVersion(db, standards2015 as SeedVersion, false);
  await seedVersion(db, standards2025 as SeedVersion, true);
}

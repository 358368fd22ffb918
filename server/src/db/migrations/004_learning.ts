import { type Kysely, sql } from 'kysely';

/**
 * Learning (issue 4, spec 1 §7 "Attempts", spec 2 §3): attempts at content, quiz attempts, results and the
 * precomputed latest result per (user, course) that the compliance matrix joins (ARCHITECTURE "Data"), plus the
 * per-entity certificate branding of /entities/{slug}/certificate-branding.
 * Statements run one by one (PGlite's extended protocol takes one statement per query).
 */
const statements = [
  `CREATE TABLE attempts (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    content_id integer NOT NULL REFERENCES contents(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'in_progress' CHECK (status IN ('in_progress','completed','passed','failed')),
    progress jsonb NOT NULL DEFAULT '{}',
    cmi jsonb NOT NULL DEFAULT '{}',
    score numeric,
    version integer NOT NULL DEFAULT 1,
    started_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX attempts_user_course_idx ON attempts(user_id, course_id)`,
  `CREATE INDEX attempts_course_idx ON attempts(course_id)`,
  `CREATE INDEX attempts_content_idx ON attempts(content_id)`,
  // At most one live in-progress attempt per learner and content (spec: POST returns the existing one).
  `CREATE UNIQUE INDEX attempts_one_in_progress_uq ON attempts(user_id, content_id)
     WHERE status = 'in_progress' AND deleted_at IS NULL`,

  `CREATE TABLE quiz_attempts (
    id serial PRIMARY KEY,
    attempt_id integer NOT NULL REFERENCES attempts(id) ON DELETE CASCADE,
    quiz_id integer NOT NULL REFERENCES quizzes(id) ON DELETE CASCADE,
    question_order jsonb NOT NULL DEFAULT '[]',
    answer_order jsonb NOT NULL DEFAULT '{}',
    responses jsonb,
    score numeric,
    passed boolean,
    created_at timestamptz NOT NULL DEFAULT now(),
    submitted_at timestamptz
  )`,
  `CREATE INDEX quiz_attempts_attempt_idx ON quiz_attempts(attempt_id, quiz_id)`,
  `CREATE INDEX quiz_attempts_quiz_idx ON quiz_attempts(quiz_id)`,

  `CREATE TABLE results (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    content_id integer REFERENCES contents(id) ON DELETE SET NULL,
    type text NOT NULL CHECK (type IN ('elearning','scorm','historical','face2face','exempt','assessment','pathway')),
    status text NOT NULL DEFAULT 'approved' CHECK (status IN ('approved','pending')),
    passed boolean NOT NULL,
    score numeric,
    completed_at timestamptz NOT NULL,
    expires_at timestamptz,
    attempt_id integer REFERENCES attempts(id) ON DELETE SET NULL,
    certificate_suppressed boolean NOT NULL DEFAULT false,
    evidence_file_id integer REFERENCES files(id) ON DELETE SET NULL,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX results_user_course_idx ON results(user_id, course_id, completed_at DESC)`,
  `CREATE INDEX results_course_idx ON results(course_id)`,
  `CREATE INDEX results_entity_idx ON results(entity_id)`,
  `CREATE INDEX results_attempt_idx ON results(attempt_id)`,

  `CREATE TABLE latest_results (
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    result_id integer NOT NULL REFERENCES results(id) ON DELETE CASCADE,
    passed boolean NOT NULL,
    completed_at timestamptz NOT NULL,
    expires_at timestamptz,
    type text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (user_id, course_id)
  )`,
  `CREATE INDEX latest_results_course_idx ON latest_results(course_id)`,
  `CREATE INDEX latest_results_result_idx ON latest_results(result_id)`,

  `CREATE TABLE certificate_branding (
    entity_id integer PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
    title text,
    signatory_name text,
    signatory_role text,
    accent_colour text CHECK (accent_colour IS NULL OR accent_colour ~ '^#[0-9a-fA-F]{6}$'),
    logo_file_id integer REFERENCES files(id) ON DELETE SET NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Durable jobs, report presets and report schedules (issue 5 item 5).
 *
 * - jobs: the queue (ARCHITECTURE "Data": queued jobs live in PostgreSQL so several server processes share them).
 *   A worker claims due rows with FOR UPDATE SKIP LOCKED; a row left 'running' longer than timeout_seconds (its
 *   process died) is claimed again. unique_key makes an enqueue idempotent (one scheduled run per due time).
 * - mail_attachments: files sent with an outbox message (a scheduled report), kept so the admin can see them.
 * - report_presets: spec 2 §3 "Report preset"; each belongs to a user and an entity.
 * - report_schedules: permission 117; a preset e-mailed as PDF or XLSX on a cron-like recurrence.
 */
const statements = [
  `CREATE TABLE jobs (
    id bigserial PRIMARY KEY,
    name text NOT NULL,
    payload jsonb NOT NULL DEFAULT '{}'::jsonb,
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed')),
    run_at timestamptz NOT NULL,
    attempts integer NOT NULL DEFAULT 0,
    max_attempts integer NOT NULL DEFAULT 5 CHECK (max_attempts >= 1),
    timeout_seconds integer NOT NULL DEFAULT 600 CHECK (timeout_seconds >= 1),
    unique_key text,
    locked_by text,
    locked_at timestamptz,
    last_error text,
    finished_at timestamptz,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX jobs_due_idx ON jobs(run_at, id) WHERE status = 'queued'`,
  `CREATE INDEX jobs_running_idx ON jobs(locked_at) WHERE status = 'running'`,
  `CREATE INDEX jobs_finished_idx ON jobs(finished_at) WHERE status IN ('done','failed')`,
  `CREATE UNIQUE INDEX jobs_unique_key_idx ON jobs(unique_key)`,
  `CREATE TABLE mail_attachments (
    id serial PRIMARY KEY,
    mail_id integer NOT NULL REFERENCES mail_outbox(id) ON DELETE CASCADE,
    filename text NOT NULL,
    content_type text NOT NULL,
    size_bytes integer NOT NULL,
    content bytea NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX mail_attachments_mail_idx ON mail_attachments(mail_id)`,
  `CREATE TABLE report_presets (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    name text NOT NULL,
    report_type text NOT NULL CHECK (report_type IN ('certificate','matrix')),
    entities jsonb NOT NULL DEFAULT '[]'::jsonb,
    courses jsonb NOT NULL DEFAULT '[]'::jsonb,
    pathways jsonb NOT NULL DEFAULT '[]'::jsonb,
    users jsonb NOT NULL DEFAULT '[]'::jsonb,
    roles jsonb NOT NULL DEFAULT '[]'::jsonb,
    include_status_types jsonb NOT NULL DEFAULT '[]'::jsonb,
    include_starters boolean NOT NULL DEFAULT true,
    compliance_type text NOT NULL DEFAULT 'primary',
    previous_months integer,
    grade text,
    filter_by text NOT NULL DEFAULT 'completed',
    course_type text,
    period text NOT NULL DEFAULT 'last_month' CHECK (period IN ('today','last_week','last_month')),
    from_date date,
    to_date date,
    primary_only boolean NOT NULL DEFAULT false,
    never_logged_in_only boolean NOT NULL DEFAULT false,
    date_completion boolean NOT NULL DEFAULT false,
    new_starters_filter text NOT NULL DEFAULT 'include_new_starters'
      CHECK (new_starters_filter IN ('exclude_new_starters','include_new_starters','new_starters_only')),
    care_certificate_filter text NOT NULL DEFAULT 'either'
      CHECK (care_certificate_filter IN ('in_progress','complete','either')),
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX report_presets_user_idx ON report_presets(user_id, entity_id)`,
  `CREATE INDEX report_presets_entity_idx ON report_presets(entity_id)`,
  `CREATE TABLE report_schedules (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    preset_id integer NOT NULL REFERENCES report_presets(id) ON DELETE CASCADE,
    frequency text NOT NULL CHECK (frequency IN ('daily','weekly','monthly')),
    time_of_day text NOT NULL,
    weekday integer CHECK (weekday BETWEEN 0 AND 6),
    day_of_month integer CHECK (day_of_month BETWEEN 1 AND 28),
    timezone text NOT NULL,
    cron text NOT NULL,
    recipients jsonb NOT NULL DEFAULT '[]'::jsonb,
    format text NOT NULL CHECK (format IN ('PDF','XLSX')),
    active boolean NOT NULL DEFAULT true,
    next_run_at timestamptz,
    last_run_at timestamptz,
    last_status text CHECK (last_status IN ('queued','sent','failed')),
    last_error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX report_schedules_due_idx ON report_schedules(next_run_at) WHERE active`,
  `CREATE INDEX report_schedules_user_idx ON report_schedules(user_id)`,
  `CREATE INDEX report_schedules_preset_idx ON report_schedules(preset_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

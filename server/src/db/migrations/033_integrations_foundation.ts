import { type Kysely, sql } from 'kysely';

/**
 * 033_integrations_foundation (issue 18): what the integration capabilities share.
 *
 * - tasks: every long job a user started (exports, e-mailed reports, imports, bulk events, bulk attempts), as the
 *   user sees it on /tasks-in-progress: its progress (done of total), its result (a file to download, or a summary)
 *   or its error. The durable queue's `jobs` row does the work; a task is the user's view of it (a job may run
 *   several attempts; a task has one outcome). Written by tasks/service.ts only.
 * - personal_access_tokens gains what a personal access token needs beyond a device login's token: its kind, the
 *   visible prefix (shown in the list so a leaked token can be matched), the address it was last used from, and
 *   revoked_at (a revoked token stays listed, and is refused at once).
 * - entities.pat_max_days: the longest expiry a personal access token of the organisation may have (level A's
 *   value applies to its homes).
 */
const statements = [
  `CREATE TABLE tasks (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    kind text NOT NULL,
    title text NOT NULL,
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued','running','done','failed','cancelled')),
    progress_done integer NOT NULL DEFAULT 0 CHECK (progress_done >= 0),
    progress_total integer CHECK (progress_total IS NULL OR progress_total >= 0),
    result jsonb,
    error text,
    job_id integer,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
  )`,
  `CREATE INDEX tasks_user_idx ON tasks(user_id, created_at DESC, id DESC)`,
  `CREATE INDEX tasks_active_idx ON tasks(user_id) WHERE status IN ('queued','running')`,
  `ALTER TABLE personal_access_tokens
     ADD COLUMN kind text NOT NULL DEFAULT 'device' CHECK (kind IN ('device','personal')),
     ADD COLUMN token_prefix text,
     ADD COLUMN last_used_ip text,
     ADD COLUMN revoked_at timestamptz`,
  `CREATE INDEX personal_access_tokens_personal_idx ON personal_access_tokens(user_id, created_at DESC)
     WHERE kind = 'personal'`,
  `ALTER TABLE entities ADD COLUMN pat_max_days integer NOT NULL DEFAULT 365
     CHECK (pat_max_days BETWEEN 1 AND 3650)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

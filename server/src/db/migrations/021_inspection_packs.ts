import { type Kysely, sql } from 'kysely';

/**
 * 021_inspection_packs (issue 13 "Inspection pack"): one row per pack a manager asks for on a home. A job
 * (reports/inspection-pack.ts) fills it in: progress 0..1, then the PDF and the zip of evidence in storage, or the
 * error. Rows are looked up by uuid (the download link), always within the caller's scope.
 */
const statements = [
  `CREATE TABLE inspection_packs (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    requested_by integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    status text NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'running', 'done', 'failed')),
    progress real NOT NULL DEFAULT 0 CHECK (progress >= 0 AND progress <= 1),
    pdf_key text,
    zip_key text,
    error text,
    created_at timestamptz NOT NULL DEFAULT now(),
    finished_at timestamptz
  )`,
  `CREATE INDEX inspection_packs_entity_idx ON inspection_packs(entity_id, created_at DESC)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

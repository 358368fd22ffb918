import { type Kysely, sql } from 'kysely';

/**
 * 056_asc_wds_export (issue 37 §1; reports/asc-wds-export.ts, docs/asc-wds-export.md): the ASC-WDS training file.
 *
 * - asc_wds_settings: a home's (or organisation's) workplace ID in ASC-WDS, the file's LOCALESTID. One row per entity,
 *   written with a single-statement upsert.
 * - asc_wds_course_categories: the ASC-WDS training category (the bulk upload code of the CATEGORY column) of a course,
 *   per organisation (the level A entity): a course may be shared by several organisations, each maps it for itself.
 * - asc_wds_exports: each file downloaded, per home, so "since the last export" knows when that was.
 */
const statements = [
  `CREATE TABLE asc_wds_settings (
     entity_id integer PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
     local_establishment_id text CHECK (length(local_establishment_id) BETWEEN 1 AND 50),
     updated_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE TABLE asc_wds_course_categories (
     organisation_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
     course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
     category smallint NOT NULL CHECK (category BETWEEN 1 AND 99),
     updated_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (organisation_id, course_id)
   )`,
  `CREATE TABLE asc_wds_exports (
     id serial PRIMARY KEY,
     entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
     created_by integer REFERENCES users(id) ON DELETE SET NULL,
     since text NOT NULL CHECK (since IN ('last', 'all')),
     row_count integer NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX asc_wds_exports_entity ON asc_wds_exports (entity_id, created_at DESC)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

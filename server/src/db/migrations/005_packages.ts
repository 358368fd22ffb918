import { type Kysely, sql } from 'kysely';

/**
 * Uploaded packages (issue 4 items 2 and 5): a SCORM 1.2 / 2004 zip per scorm content, and an extracted .h5p per H5P
 * item. Files live on disk under DATA_DIR/files/packages/<uuid>/ (storage_dir is that relative folder); the rows say
 * what the player needs (version, launch path, mastery score; H5P main library). One package per content / item:
 * an upload replaces the previous one.
 */
const statements = [
  `CREATE TABLE scorm_packages (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    content_id integer NOT NULL UNIQUE REFERENCES contents(id) ON DELETE CASCADE,
    version text NOT NULL CHECK (version IN ('1.2','2004')),
    title text NOT NULL,
    launch_path text NOT NULL,
    mastery_score numeric,
    storage_dir text NOT NULL,
    size_bytes integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX scorm_packages_entity_idx ON scorm_packages(entity_id)`,
  `CREATE TABLE h5p_packages (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer REFERENCES entities(id) ON DELETE CASCADE,
    h5p_id integer NOT NULL UNIQUE REFERENCES h5ps(id) ON DELETE CASCADE,
    title text NOT NULL,
    main_library text NOT NULL,
    storage_dir text NOT NULL,
    size_bytes integer NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX h5p_packages_entity_idx ON h5p_packages(entity_id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

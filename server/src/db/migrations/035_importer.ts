import { type Kysely, sql } from 'kysely';

/**
 * 035_importer (issue 18; contracts importer.ts, permissions 99 importer logs, 100 resolve importer logs).
 *
 * - users.employee_number: the organisation's own id for a person, unique within a level A organisation and its
 *   homes. Modelled as a real constraint so PostgreSQL decides under concurrency: employee_org_id is the level A
 *   organisation of the user's primary entity, kept by triggers (on the user's insert / move / number change and on
 *   an entity's re-parenting), and a unique index on (employee_org_id, lower(employee_number)).
 * - imports: one row per run (plan, apply, undo), with its counts and status.
 * - import_rows: the plan, one row per CSV row that is not an error (create / update / unchanged), written in batches
 *   while the file streams, so a 100,000-row plan never sits in memory; apply and undo read it back in batches.
 * - import_errors: row-level errors (row number, column, message, the row's values), resolvable with a note (100).
 */
const statements = [
  `ALTER TABLE users ADD COLUMN employee_number text, ADD COLUMN employee_org_id integer`,
  `CREATE FUNCTION importer_a_entity(start integer) RETURNS integer LANGUAGE sql STABLE AS $$
    WITH RECURSIVE chain AS (
      SELECT id, parent_id, level, 0 AS depth FROM entities WHERE id = start
      UNION ALL
      SELECT e.id, e.parent_id, e.level, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id WHERE c.depth < 50
    )
    SELECT COALESCE(
      (SELECT id FROM chain WHERE level = 'A' ORDER BY depth DESC LIMIT 1),
      (SELECT id FROM chain ORDER BY depth DESC LIMIT 1))
  $$`,
  `CREATE FUNCTION users_employee_org() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.employee_org_id := CASE WHEN NEW.employee_number IS NULL THEN NULL
                                ELSE importer_a_entity(NEW.primary_entity_id) END;
    RETURN NEW;
  END $$`,
  `CREATE TRIGGER users_employee_org BEFORE INSERT OR UPDATE OF employee_number, primary_entity_id ON users
     FOR EACH ROW EXECUTE FUNCTION users_employee_org()`,
  `CREATE FUNCTION entities_employee_org() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    UPDATE users u SET employee_org_id = importer_a_entity(u.primary_entity_id)
     WHERE u.employee_number IS NOT NULL AND u.primary_entity_id IN (
       WITH RECURSIVE tree AS (
         SELECT NEW.id AS id
         UNION ALL
         SELECT e.id FROM entities e JOIN tree t ON e.parent_id = t.id)
       SELECT id FROM tree);
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER entities_employee_org AFTER UPDATE OF parent_id, level ON entities
     FOR EACH ROW WHEN (OLD.parent_id IS DISTINCT FROM NEW.parent_id OR OLD.level IS DISTINCT FROM NEW.level)
     EXECUTE FUNCTION entities_employee_org()`,
  `CREATE UNIQUE INDEX users_employee_number_unique ON users (employee_org_id, lower(employee_number))
     WHERE employee_number IS NOT NULL`,
  `CREATE TABLE imports (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL DEFAULT gen_random_uuid() UNIQUE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    kind text NOT NULL CHECK (kind IN ('users', 'training')),
    file_name text NOT NULL,
    headers jsonb NOT NULL DEFAULT '[]',
    storage_key text,
    status text NOT NULL DEFAULT 'planning'
      CHECK (status IN ('planning', 'planned', 'applying', 'applied', 'failed', 'undoing', 'undone')),
    failure text,
    total_rows integer NOT NULL DEFAULT 0,
    create_count integer NOT NULL DEFAULT 0,
    update_count integer NOT NULL DEFAULT 0,
    unchanged_count integer NOT NULL DEFAULT 0,
    error_count integer NOT NULL DEFAULT 0,
    created_count integer NOT NULL DEFAULT 0,
    updated_count integer NOT NULL DEFAULT 0,
    kept_count integer NOT NULL DEFAULT 0,
    task_id integer REFERENCES tasks(id) ON DELETE SET NULL,
    plan_ms integer,
    apply_ms integer,
    applied_by integer REFERENCES users(id) ON DELETE SET NULL,
    undone_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    planned_at timestamptz,
    applied_at timestamptz,
    undone_at timestamptz,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX imports_entity_idx ON imports(entity_id, created_at DESC)`,
  `CREATE TABLE import_rows (
    import_id integer NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    row_number integer NOT NULL,
    action text NOT NULL CHECK (action IN ('create', 'update', 'unchanged')),
    target_id integer,
    data jsonb NOT NULL,
    changes jsonb,
    before jsonb,
    applied boolean NOT NULL DEFAULT false,
    PRIMARY KEY (import_id, row_number)
  )`,
  `CREATE INDEX import_rows_action_idx ON import_rows(import_id, action, row_number)`,
  `CREATE TABLE import_errors (
    id serial PRIMARY KEY,
    import_id integer NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    row_number integer NOT NULL,
    column_name text NOT NULL,
    message text NOT NULL,
    row_values jsonb NOT NULL,
    resolved_at timestamptz,
    resolved_by integer REFERENCES users(id) ON DELETE SET NULL,
    resolution_note text
  )`,
  `CREATE INDEX import_errors_import_idx ON import_errors(import_id, row_number, id)`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * Results of every kind (issue 5 item 1).
 *
 * - results.notes: the free text of a historical result or an exemption.
 * - results.approved_by / approved_at: who approved a pending result and when (GET /results/pending/{type}).
 * - results.bulk_operation_id: the bulk add (POST /users/bulk-add-events) that created the result, so the history
 *   can show it and "delete user events" (36) can undo exactly that operation.
 * - bulk_event_operations: the history of bulk adds (who, when, course, how many), owned by the entity the actor
 *   worked in (acting-as or primary entity), which bounds who may see the row.
 */
const statements = [
  `CREATE TABLE bulk_event_operations (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    course_id integer NOT NULL REFERENCES courses(id) ON DELETE CASCADE,
    type text NOT NULL CHECK (type IN ('face2face','historical')),
    completed_at timestamptz NOT NULL,
    passed boolean NOT NULL,
    user_count integer NOT NULL,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz,
    deleted_by integer REFERENCES users(id) ON DELETE SET NULL
  )`,
  `CREATE INDEX bulk_event_operations_entity_idx ON bulk_event_operations(entity_id, created_at DESC)`,
  `ALTER TABLE results ADD COLUMN notes text`,
  `ALTER TABLE results ADD COLUMN approved_by integer REFERENCES users(id) ON DELETE SET NULL`,
  `ALTER TABLE results ADD COLUMN approved_at timestamptz`,
  `ALTER TABLE results ADD COLUMN bulk_operation_id integer REFERENCES bulk_event_operations(id) ON DELETE SET NULL`,
  `CREATE INDEX results_bulk_operation_idx ON results(bulk_operation_id) WHERE bulk_operation_id IS NOT NULL`,
  // The pending queue and the exemptions list are read by status / type.
  `CREATE INDEX results_status_type_idx ON results(status, type) WHERE deleted_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * 031_pathways_documents_designer (issue 17; contracts pathways.ts, documents.ts, designer.ts).
 *
 * Pathways and documents are each backed by a course (courses.kind 'pathway' / 'document'), so everything built on
 * courses works for them unchanged: compliance rules make a document (or a pathway) Mandatory or Required for a job
 * role, user_requirements and the matrix show it as a column, the compliance report and the inspection pack count
 * it, and its results are ordinary results (type 'document' for an acknowledgement, 'pathway' for a completed
 * pathway) that move latest_results in the same transaction.
 *
 * Documents and libraries:
 * - libraries: an organisation's shelf of documents, visible to it and its children.
 * - documents: in a library; `course_id` is its backing course; `current_version_id` the version staff must read;
 *   `check_question` an optional short question ({question, options[], correct}) answered before acknowledging.
 * - document_versions: the file of each version (stored through the storage interface; files.purpose 'document')
 *   and its "what changed" note. Publishing a new version expires every earlier acknowledgement's result (the cell
 *   leaves "in date": staff are asked again).
 * - document_views: who opened which version first (acknowledging needs an opening first).
 * - document_acknowledgements: name as typed, date, version; one per (version, user) by the unique key.
 *
 * Pathways:
 * - pathways: `course_id` is the backing course (a completed pathway records a 'pathway' result on it);
 *   `sequential`: a step is locked until the previous one is done; `requires_final_sign_off`: when every step is
 *   done the allocation waits for a manager's sign-off (spec 2 §4 "Pathway allocations can be signed off") before
 *   the result is recorded.
 * - pathway_versions: each edit of a pathway that has allocations makes a new version (history kept);
 *   `changes` records the editor's choice per changed step (keep_credit / redo / stay).
 * - pathway_steps: a version's ordered steps; `key` is stable across versions (the same step edited keeps its key),
 *   which is how credit follows a person from one version to the next.
 * - pathway_role_allocations: a pathway allocated to a job role of an organisation (and its children's members of
 *   that role); the trigger below allocates it to every member, present and future.
 * - pathway_allocations: one person's allocation on one version. One live (in_progress / awaiting_sign_off)
 *   allocation per (pathway, user) by a partial unique index. `step_credit` maps a step key to the time from which
 *   evidence counts (a "redo" moves it to the change's time; absent: any time).
 * - pathway_sign_offs: a manager's or assessor's confirmation of a sign-off step (history kept: a redo asks again).
 *
 * Content designer:
 * - designs: pages of blocks (jsonb, contracts designer.ts), the organisation that owns them, and the e-learning
 *   content they were last published to (`content_id`, `published_revision`).
 */
const statements = [
  `ALTER TABLE courses ADD COLUMN kind text NOT NULL DEFAULT 'course' CHECK (kind IN ('course','document','pathway'))`,
  `CREATE INDEX courses_kind_idx ON courses(kind) WHERE kind <> 'course'`,
  `ALTER TABLE results DROP CONSTRAINT results_type_check`,
  `ALTER TABLE results ADD CONSTRAINT results_type_check
     CHECK (type IN ('elearning','scorm','historical','face2face','exempt','assessment','pathway','document'))`,

  `CREATE TABLE libraries (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    name text NOT NULL,
    description text,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX libraries_entity_idx ON libraries(entity_id) WHERE deleted_at IS NULL`,
  `CREATE TABLE documents (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    library_id integer NOT NULL REFERENCES libraries(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    course_id integer NOT NULL UNIQUE REFERENCES courses(id) ON DELETE RESTRICT,
    title text NOT NULL,
    description text,
    current_version_id integer,
    check_question jsonb,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX documents_library_idx ON documents(library_id) WHERE deleted_at IS NULL`,
  `CREATE TABLE document_versions (
    id serial PRIMARY KEY,
    document_id integer NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    number integer NOT NULL CHECK (number >= 1),
    file_id integer NOT NULL REFERENCES files(id) ON DELETE RESTRICT,
    change_note text,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (document_id, number)
  )`,
  `ALTER TABLE documents ADD CONSTRAINT documents_current_version_fk
     FOREIGN KEY (current_version_id) REFERENCES document_versions(id) ON DELETE SET NULL`,
  `CREATE TABLE document_views (
    version_id integer NOT NULL REFERENCES document_versions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    first_opened_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (version_id, user_id)
  )`,
  `CREATE TABLE document_acknowledgements (
    id serial PRIMARY KEY,
    document_id integer NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
    version_id integer NOT NULL REFERENCES document_versions(id) ON DELETE CASCADE,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    typed_name text NOT NULL,
    acknowledged_at timestamptz NOT NULL DEFAULT now(),
    result_id integer REFERENCES results(id) ON DELETE SET NULL,
    UNIQUE (version_id, user_id)
  )`,
  `CREATE INDEX document_acknowledgements_user_idx ON document_acknowledgements(user_id, document_id)`,

  `CREATE TABLE pathways (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    course_id integer NOT NULL UNIQUE REFERENCES courses(id) ON DELETE RESTRICT,
    title text NOT NULL,
    description text,
    sequential boolean NOT NULL DEFAULT false,
    requires_final_sign_off boolean NOT NULL DEFAULT false,
    current_version_id integer,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX pathways_entity_idx ON pathways(entity_id) WHERE deleted_at IS NULL`,
  `CREATE TABLE pathway_versions (
    id serial PRIMARY KEY,
    pathway_id integer NOT NULL REFERENCES pathways(id) ON DELETE CASCADE,
    number integer NOT NULL CHECK (number >= 1),
    change_note text,
    changes jsonb NOT NULL DEFAULT '[]',
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (pathway_id, number)
  )`,
  `ALTER TABLE pathways ADD CONSTRAINT pathways_current_version_fk
     FOREIGN KEY (current_version_id) REFERENCES pathway_versions(id) ON DELETE SET NULL`,
  `CREATE TABLE pathway_steps (
    id serial PRIMARY KEY,
    version_id integer NOT NULL REFERENCES pathway_versions(id) ON DELETE CASCADE,
    key uuid NOT NULL DEFAULT gen_random_uuid(),
    position integer NOT NULL CHECK (position >= 0),
    type text NOT NULL CHECK (type IN ('course','document','sign_off')),
    course_id integer REFERENCES courses(id) ON DELETE RESTRICT,
    document_id integer REFERENCES documents(id) ON DELETE RESTRICT,
    title text,
    description text,
    due_days integer CHECK (due_days IS NULL OR due_days BETWEEN 0 AND 3650),
    due_from text NOT NULL DEFAULT 'allocation' CHECK (due_from IN ('allocation','start_date')),
    UNIQUE (version_id, key),
    UNIQUE (version_id, position),
    CHECK ((type = 'course') = (course_id IS NOT NULL)),
    CHECK ((type = 'document') = (document_id IS NOT NULL)),
    CHECK (type <> 'sign_off' OR title IS NOT NULL)
  )`,
  `CREATE INDEX pathway_steps_course_idx ON pathway_steps(course_id) WHERE course_id IS NOT NULL`,
  `CREATE INDEX pathway_steps_document_idx ON pathway_steps(document_id) WHERE document_id IS NOT NULL`,
  `CREATE TABLE pathway_role_allocations (
    id serial PRIMARY KEY,
    pathway_id integer NOT NULL REFERENCES pathways(id) ON DELETE CASCADE,
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    role_id integer NOT NULL REFERENCES entity_roles(id) ON DELETE CASCADE,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    UNIQUE (pathway_id, entity_id, role_id)
  )`,
  `CREATE INDEX pathway_role_allocations_role_idx ON pathway_role_allocations(role_id, entity_id)`,
  `CREATE TABLE pathway_allocations (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    pathway_id integer NOT NULL REFERENCES pathways(id) ON DELETE CASCADE,
    version_id integer NOT NULL REFERENCES pathway_versions(id) ON DELETE RESTRICT,
    user_id integer NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    role_allocation_id integer REFERENCES pathway_role_allocations(id) ON DELETE SET NULL,
    status text NOT NULL DEFAULT 'in_progress'
      CHECK (status IN ('in_progress','awaiting_sign_off','completed','withdrawn')),
    step_credit jsonb NOT NULL DEFAULT '{}',
    allocated_by integer REFERENCES users(id) ON DELETE SET NULL,
    allocated_at timestamptz NOT NULL DEFAULT now(),
    completed_at timestamptz,
    signed_off_by integer REFERENCES users(id) ON DELETE SET NULL,
    signed_off_at timestamptz,
    sign_off_note text,
    result_id integer REFERENCES results(id) ON DELETE SET NULL,
    updated_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE UNIQUE INDEX pathway_allocations_live_uq ON pathway_allocations(pathway_id, user_id)
     WHERE status IN ('in_progress','awaiting_sign_off')`,
  `CREATE INDEX pathway_allocations_user_idx ON pathway_allocations(user_id, status)`,
  `CREATE INDEX pathway_allocations_version_idx ON pathway_allocations(version_id)`,
  `CREATE TABLE pathway_sign_offs (
    id serial PRIMARY KEY,
    allocation_id integer NOT NULL REFERENCES pathway_allocations(id) ON DELETE CASCADE,
    step_key uuid NOT NULL,
    signed_by integer REFERENCES users(id) ON DELETE SET NULL,
    signed_on date NOT NULL,
    note text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now()
  )`,
  `CREATE INDEX pathway_sign_offs_allocation_idx ON pathway_sign_offs(allocation_id, step_key)`,

  // A role allocation reaches every member of the role, present (the service inserts them) and future (this
  // trigger): a user created in, or moved to, the role in the organisation or one of its children. A member who
  // already has a live allocation of the pathway keeps it (the partial unique index; DO NOTHING).
  `CREATE FUNCTION pathway_role_members_allocate() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF NEW.role_id IS NULL THEN RETURN NEW; END IF;
    IF TG_OP = 'UPDATE' AND NEW.role_id IS NOT DISTINCT FROM OLD.role_id
       AND NEW.primary_entity_id IS NOT DISTINCT FROM OLD.primary_entity_id THEN RETURN NEW; END IF;
    INSERT INTO pathway_allocations (pathway_id, version_id, user_id, role_allocation_id)
    SELECT p.id, p.current_version_id, NEW.id, pra.id
      FROM pathway_role_allocations pra
      JOIN pathways p ON p.id = pra.pathway_id AND p.deleted_at IS NULL AND p.current_version_id IS NOT NULL
      JOIN entities e ON e.id = NEW.primary_entity_id
     WHERE pra.role_id = NEW.role_id AND (pra.entity_id = e.id OR pra.entity_id = e.parent_id)
    ON CONFLICT DO NOTHING;
    RETURN NEW;
  END $$`,
  `CREATE TRIGGER users_pathway_role_allocate AFTER INSERT OR UPDATE OF role_id, primary_entity_id ON users
     FOR EACH ROW EXECUTE FUNCTION pathway_role_members_allocate()`,

  `CREATE TABLE designs (
    id serial PRIMARY KEY,
    uuid uuid NOT NULL UNIQUE DEFAULT gen_random_uuid(),
    entity_id integer NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
    title text NOT NULL,
    pages jsonb NOT NULL DEFAULT '[]',
    revision integer NOT NULL DEFAULT 1,
    content_id integer REFERENCES contents(id) ON DELETE SET NULL,
    published_revision integer,
    published_at timestamptz,
    created_by integer REFERENCES users(id) ON DELETE SET NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now(),
    deleted_at timestamptz
  )`,
  `CREATE INDEX designs_entity_idx ON designs(entity_id) WHERE deleted_at IS NULL`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

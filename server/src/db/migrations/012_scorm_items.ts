import { type Kysely, sql } from 'kysely';

/**
 * 012_scorm_items (issue 10 item 1, multi-SCO packages): every item of a SCORM package's organisation, as the manifest
 * reader returns them (packages/manifest.ts ScormItem), kept with the package. Packages uploaded before this get one
 * item built from their launch path and mastery score, so every package has at least its first SCO.
 */
const statements = [
  `ALTER TABLE scorm_packages ADD COLUMN items jsonb NOT NULL DEFAULT '[]'`,
  `UPDATE scorm_packages SET items = jsonb_build_array(jsonb_build_object(
    'identifier', 'item', 'title', title, 'depth', 0, 'parent', NULL, 'launch_path', launch_path,
    'scorm_type', 'sco', 'visible', true, 'mastery_score', mastery_score, 'scaled_passing_score', NULL,
    'objective_ids', '[]'::jsonb, 'data_from_lms', NULL, 'completion_set_by_content', false))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

import { type Kysely, sql } from 'kysely';

/**
 * 022_date_format (issue 13 "Words": one date format).
 *
 * entities.date_format: the organisation's choice of how dates read on pages, PDFs and XLSX (DateFormat in
 * packages/contracts/src/dates.ts). NULL means "not chosen here": a level B entity then follows its level A
 * parent, and without either the product default DD/MM/YYYY applies. Edited with the white-label settings.
 */
const statements = [
  `ALTER TABLE entities ADD COLUMN date_format text
     CHECK (date_format IN ('DD/MM/YYYY', 'MM/DD/YYYY', 'YYYY-MM-DD'))`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}

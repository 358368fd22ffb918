import { type Kysely, sql } from 'kysely';
import shipped2015 from './030-data/2015.json';
import shipped2025 from './030-data/2025.json';
// Imported, not read from disk (the bundle carries the data). Frozen copies: the standards as of this migration
// (care-certificate/standards/ on the day it was written) and the data 030 seeded; a later edit there is a new migration.
import current2015 from './042-data/2015.json';
import current2025 from './042-data/2025.json';

/**
 * 042_care_certificate_criteria (issue 32 §1 "The Care Certificate can be completed"): the built-in versions ('2015'
 * and '2025') gain the criteria checked since 030 against ../shared/reference/care-certificate-criteria.md (sources per
 * criterion in care-certificate/standards/SOURCES.md): 2015 1.2a, 1.2f, 7.6c, 9.3a, 9.4b and the title of 1.2; 2025
 * the criteria in 2025 numbering outside Standard 9.
 *
 * Idempotent on codes, and it keeps what super admins did since: a standard, outcome or criterion is inserted only
 * when its code is not in the database and was not in 030's data (one a super admin deleted stays deleted); a title,
 * text or position is changed only while it still holds what 030 seeded (a super admin's edit stays). A later
 * correction of the data files ships as a new migration that runs syncBuiltInVersion again.
 */

interface DataCriterion {
  code: string;
  text: string;
}
interface DataOutcome {
  code: string;
  title: string | null;
  criteria: DataCriterion[];
}
interface DataStandard {
  number: number;
  title: string;
  outcomes: DataOutcome[];
}
export interface StandardsData {
  version: string;
  title: string;
  standards: DataStandard[];
}

interface Shipped {
  standards: Map<number, string>;
  outcomes: Map<string, { title: string | null; position: number }>;
  criteria: Map<string, { text: string; position: number }>;
}

function index(data: StandardsData): Shipped {
  const shipped: Shipped = { standards: new Map(), outcomes: new Map(), criteria: new Map() };
  for (const s of data.standards) {
    shipped.standards.set(s.number, s.title);
    for (const [oi, o] of s.outcomes.entries()) {
      shipped.outcomes.set(`${s.number}/${o.code}`, { title: o.title, position: oi });
      for (const [ci, c] of o.criteria.entries())
        shipped.criteria.set(`${s.number}/${c.code}`, { text: c.text, position: ci });
    }
  }
  return shipped;
}

/** Brings a built-in version (by code) to `current`, given the data it was seeded from (`seeded`). */
export async function syncBuiltInVersion(
  db: Kysely<unknown>,
  current: StandardsData,
  seeded: StandardsData,
): Promise<void> {
  const version = await sql<{ id: number }>`
    SELECT id FROM care_certificate_versions WHERE code = ${current.version}`.execute(db);
  const versionId = version.rows[0]?.id;
  if (versionId === undefined) return; // deleted by a super admin: nothing to bring up to date
  const was = index(seeded);
  for (const s of current.standards) {
    let standard = await sql<{ id: number; title: string }>`
      SELECT id, title FROM care_certificate_standards WHERE version_id = ${versionId} AND number = ${s.number}`.execute(
      db,
    );
    if (!standard.rows[0]) {
      if (was.standards.has(s.number)) continue;
      standard = await sql<{ id: number; title: string }>`
        INSERT INTO care_certificate_standards (version_id, number, title)
        VALUES (${versionId}, ${s.number}, ${s.title}) RETURNING id, title`.execute(db);
    }
    const standardId = standard.rows[0].id;
    if (standard.rows[0].title !== s.title && standard.rows[0].title === was.standards.get(s.number))
      await sql`UPDATE care_certificate_standards SET title = ${s.title} WHERE id = ${standardId}`.execute(
        db,
      );

    for (const [oi, o] of s.outcomes.entries()) {
      const before = was.outcomes.get(`${s.number}/${o.code}`);
      let outcome = await sql<{ id: number; title: string | null; position: number }>`
        SELECT id, title, position FROM care_certificate_outcomes
        WHERE standard_id = ${standardId} AND code = ${o.code}`.execute(db);
      if (!outcome.rows[0]) {
        // Re-made even when 030 had it, if a criterion new since 030 needs it.
        const fresh = o.criteria.filter((c) => !was.criteria.has(`${s.number}/${c.code}`));
        if (before && fresh.length === 0) continue;
        outcome = await sql<{ id: number; title: string | null; position: number }>`
          INSERT INTO care_certificate_outcomes (standard_id, code, title, position)
          VALUES (${standardId}, ${o.code}, ${o.title}, ${oi}) RETURNING id, title, position`.execute(db);
      }
      const row = outcome.rows[0];
      const untouched =
        before !== undefined && row.title === before.title && row.position === before.position;
      if (untouched && (row.title !== o.title || row.position !== oi))
        await sql`UPDATE care_certificate_outcomes SET title = ${o.title}, position = ${oi} WHERE id = ${row.id}`.execute(
          db,
        );

      for (const [ci, c] of o.criteria.entries()) {
        const seededCriterion = was.criteria.get(`${s.number}/${c.code}`);
        if (!seededCriterion) {
          await sql`
            INSERT INTO care_certificate_criteria (standard_id, outcome_id, code, text, requires_observation, position)
            VALUES (${standardId}, ${row.id}, ${c.code}, ${c.text}, ${/^demonstrate\b/i.test(c.text)}, ${ci})
            ON CONFLICT (standard_id, code) DO NOTHING`.execute(db);
          continue;
        }
        // Seeded by 030: the text and the place follow the data only while a super admin has not changed them.
        await sql`
          UPDATE care_certificate_criteria
          SET requires_observation = CASE WHEN text <> ${c.text} THEN ${/^demonstrate\b/i.test(c.text)}
                                      ELSE requires_observation END,
              text = ${c.text}, position = ${ci}
          WHERE standard_id = ${standardId} AND code = ${c.code} AND outcome_id = ${row.id}
            AND text = ${seededCriterion.text} AND position = ${seededCriterion.position}
            AND (text <> ${c.text} OR position <> ${ci})`.execute(db);
      }
    }
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await syncBuiltInVersion(db, current2015 as StandardsData, shipped2015 as StandardsData);
  await syncBuiltInVersion(db, current2025 as StandardsData, shipped2025 as StandardsData);
}

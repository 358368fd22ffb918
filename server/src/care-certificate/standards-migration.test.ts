import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../../test/test-database';
import { type Connection, connect } from '../db/connect';
import { migrate, migrateTo } from '../db/migrate';
import shipped2015 from '../db/migrations/030-data/2015.json';
import { type StandardsData, syncBuiltInVersion } from '../db/migrations/042_care_certificate_criteria';
import data2015 from './standards/2015.json';
import data2025 from './standards/2025.json';

/**
 * Issue 32 §1: a database made before the criteria were completed (migrated to 041) gets them on upgrade (042), and
 * what its super admins did to the built-in standards in the meantime stays done.
 */
let database: TestDatabase | null = null;
let conn: Connection;
beforeAll(async () => {
  if (process.env.DATABASE_URL) {
    database = await createTestDatabase(process.env.DATABASE_URL, 'cc_migrate');
    conn = await connect({ databaseUrl: database.url, dataDir: null });
  } else {
    conn = await connect({ dataDir: null });
  }
  await migrateTo(conn.db, '041_offline_refusals');
}, 300_000); // every migration from an empty database: minutes on PGlite on a busy machine
afterAll(async () => {
  await conn?.close();
  await database?.drop();
});

const criteria = async (version: string) =>
  (
    await sql<{
      code: string;
      text: string;
      outcome: string;
      outcome_title: string | null;
      position: number;
    }>`
      SELECT k.code, k.text, o.code AS outcome, o.title AS outcome_title, k.position
      FROM care_certificate_criteria k
      JOIN care_certificate_outcomes o ON o.id = k.outcome_id
      JOIN care_certificate_standards s ON s.id = k.standard_id
      JOIN care_certificate_versions v ON v.id = s.version_id
      WHERE v.code = ${version}
      ORDER BY s.number, o.position, k.position, k.code`.execute(conn.db)
  ).rows;

describe('042_care_certificate_criteria on an existing database', () => {
  it('adds the new criteria of both built-in versions, keeps super admins’ edits and deletions, and runs again as a no-op', async () => {
    const before2015 = await criteria('2015');
    expect(before2015.map((c) => c.code)).not.toContain('1.2a');
    expect((await criteria('2025')).length).toBe(9);

    // What a super admin may have done since 030: reworded a criterion, deleted one, retitled an outcome, added one.
    await sql`UPDATE care_certificate_criteria SET text = 'Our own wording of 1.1a' WHERE code = '1.1a'`.execute(
      conn.db,
    );
    await sql`DELETE FROM care_certificate_criteria k USING care_certificate_standards s, care_certificate_versions v
      WHERE s.id = k.standard_id AND v.id = s.version_id AND v.code = '2015' AND k.code = '9.5a'`.execute(
      conn.db,
    );
    await sql`UPDATE care_certificate_outcomes o SET title = 'Our 1.4 title'
      FROM care_certificate_standards s, care_certificate_versions v
      WHERE s.id = o.standard_id AND v.id = s.version_id AND v.code = '2015' AND o.code = '1.4'`.execute(
      conn.db,
    );
    await sql`INSERT INTO care_certificate_criteria (standard_id, outcome_id, code, text, position)
      SELECT o.standard_id, o.id, '9.4a', 'Entered by a super admin', 0
      FROM care_certificate_outcomes o JOIN care_certificate_standards s ON s.id = o.standard_id
      JOIN care_certificate_versions v ON v.id = s.version_id WHERE v.code = '2015' AND o.code = '9.4'`.execute(
      conn.db,
    );

    const applied = await migrate(conn.db);
    expect(applied).toContain('042_care_certificate_criteria');

    const after2015 = await criteria('2015');
    const byCode = new Map(after2015.map((c) => [c.code, c]));
    // New since 030, sourced in SOURCES.md.
    expect(byCode.get('1.2a')?.text).toBe('Describe their employment rights and responsibilities');
    expect(byCode.get('9.3a')?.text).toMatch(/^Describe what adjustments might need to be made/);
    expect(byCode.get('9.4b')?.text).toMatch(/^Give examples of how and why adjustments/);
    expect(after2015.filter((c) => c.outcome === '1.2').map((c) => c.code)).toEqual(['1.2a', '1.2e', '1.2f']);
    expect(byCode.get('1.2e')?.outcome_title).toBe('Work in ways that have been agreed with their employer');
    // The super admin's work stays.
    expect(byCode.get('1.1a')?.text).toBe('Our own wording of 1.1a');
    expect(byCode.has('9.5a')).toBe(false);
    expect(byCode.get('1.4a')?.outcome_title).toBe('Our 1.4 title');
    expect(after2015.filter((c) => c.outcome === '9.4').map((c) => [c.code, c.text])).toEqual([
      ['9.4a', 'Entered by a super admin'],
      ['9.4b', expect.stringMatching(/^Give examples/)],
    ]);
    // 180 in the data, less the deleted 9.5a, plus the admin's 9.4a.
    expect(after2015.length).toBe(180);

    const after2025 = await criteria('2025');
    expect(after2025.map((c) => c.code)).toEqual(
      (data2025 as StandardsData).standards.flatMap((s) =>
        s.outcomes.flatMap((o) => o.criteria.map((c) => c.code)),
      ),
    );
    expect(after2025.find((c) => c.code === '9.4e')?.outcome_title).toBeNull();

    // Idempotent: once more changes nothing.
    await syncBuiltInVersion(
      conn.db as unknown as Kysely<unknown>,
      data2015 as StandardsData,
      shipped2015 as StandardsData,
    );
    expect(await criteria('2015')).toEqual(after2015);
  });

  it('new "Demonstrate…" criteria must be observed, as 030 seeded them', async () => {
    const rows = (
      await sql<{ code: string; requires_observation: boolean }>`
        SELECT k.code, k.requires_observation FROM care_certificate_criteria k
        JOIN care_certificate_standards s ON s.id = k.standard_id
        JOIN care_certificate_versions v ON v.id = s.version_id
        WHERE v.code = '2025' AND k.code IN ('1.4d', '15.1g', '13.6a')`.execute(conn.db)
    ).rows;
    expect(Object.fromEntries(rows.map((r) => [r.code, r.requires_observation]))).toEqual({
      '1.4d': true,
      '15.1g': true,
      '13.6a': false,
    });
  });
});

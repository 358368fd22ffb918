/**
 * Which server test files run on which engine when `npm test` has both (README "Tests"; issue 27). Every file runs
 * on PostgreSQL (DATABASE_URL), which also runs the races; the embedded lane (PGlite, in memory, the engine a
 * developer's `npm test` uses without DATABASE_URL) runs only what is about the embedded engine plus a smoke slice
 * that walks the main paths through the PGlite harness, so a PGlite-only failure (its single connection, its SQL
 * gaps) still shows. A developer's plain `npm test` runs every file on PGlite.
 */

/** The embedded engine's own tests: its processes, lifecycle, lock, fallback and disk full. */
export const EMBEDDED_ONLY = ['test/embedded/**/*.test.ts'];

/** One file per main path of the product, run on PGlite too. */
export const EMBEDDED_SMOKE = [
  'src/auth/auth.test.ts',
  'src/users/users.test.ts',
  'src/compliance/compliance.test.ts',
  'src/learning/attempts.test.ts',
  'src/results/results.test.ts',
  'src/matrix/matrix.test.ts',
  'src/importer/importer.test.ts',
  'src/jobs/queue.test.ts',
  // The restore drill: the backup's session and COPY differ by engine (backup/session.ts).
  'src/backup/backup.test.ts',
];

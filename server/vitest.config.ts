import { configDefaults, defineConfig } from 'vitest/config';
import { EMBEDDED_ONLY, EMBEDDED_SMOKE } from './test/lanes';

/**
 * SERVER_SUITE picks the lane (README "Tests"): unset runs every file on the engine DATABASE_URL chooses (PGlite when
 * it is unset); `postgres` runs every file but the embedded engine's own (they start embedded PostgreSQL processes and
 * ignore DATABASE_URL), `embedded` runs those plus a smoke slice on PGlite. `npm test` with DATABASE_URL runs both
 * lanes, so each test runs once where the engine does not matter.
 */
const lane = process.env.SERVER_SUITE ?? 'all';
if (!['all', 'postgres', 'embedded'].includes(lane))
  throw new Error(`SERVER_SUITE must be postgres or embedded (or unset), not "${lane}"`);
if (lane === 'postgres' && !process.env.DATABASE_URL)
  throw new Error('SERVER_SUITE=postgres needs DATABASE_URL');
if (lane === 'embedded' && process.env.DATABASE_URL)
  throw new Error('SERVER_SUITE=embedded runs on PGlite: unset DATABASE_URL');

const everything = ['src/**/*.test.ts', 'test/**/*.test.ts'];

export default defineConfig({
  test: {
    include: lane === 'embedded' ? [...EMBEDDED_ONLY, ...EMBEDDED_SMOKE] : everything,
    // The multi-process test has its own command (npm run test:cluster): it needs haproxy and PostgreSQL.
    exclude: [...configDefaults.exclude, 'test/cluster/**', ...(lane === 'postgres' ? EMBEDDED_ONLY : [])],
    environment: 'node',
    // argon2id at its smallest cost (auth/passwords.ts): a standard hash is about 0.05 CPU-seconds and the suite signs
    // in thousands of times. Servers the tests start in production set it back to standard (production refuses fast);
    // config.test.ts and passwords.test.ts prove the standard cost.
    env: { PASSWORD_HASHING: 'fast' },
    // Migrates one database per run; each file's database starts as a copy of it (test/harness.ts).
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // The PostgreSQL lane loads the app's modules once per worker rather than once per file (import was 1,531 of the
    // lane's CPU-seconds); test/file-setup.ts empties the in-process caches between files. The embedded lane keeps
    // a process per file: its tests start and kill embedded PostgreSQL processes and hook process exit.
    isolate: lane !== 'postgres',
    setupFiles: lane === 'postgres' ? ['test/file-setup.ts'] : [],
    // Each file gets its own database; two workers match the two cores CI has.
    maxWorkers: 2,
    testTimeout: 30_000,
    // PGlite set-ups (a harness from the snapshot, the demo seed, a second database migrated from nothing) take 12 s
    // on a quiet machine and passed 60 s in a CI run where every lane ran beside the embedded engine's own tests.
    hookTimeout: lane === 'postgres' ? 60_000 : 180_000,
    // The slowest files of the run, in CI's log (issue 27: measure before cutting).
    reporters: ['default', './test/slowest-reporter.ts'],
  },
});

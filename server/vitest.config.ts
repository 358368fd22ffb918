import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The multi-process test has its own command (npm run test:cluster): it needs haproxy and PostgreSQL.
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    environment: 'node',
    // Migrates one database per run; each file's database starts as a copy of it (test/harness.ts).
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks',
    // Each file gets its own database; two workers match the two cores CI has.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

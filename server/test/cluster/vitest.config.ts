import { defineConfig } from 'vitest/config';

/**
 * `npm run test:cluster` (issue 12 §4): three server processes behind HAProxy on one PostgreSQL database. Its own
 * config: the everyday suite (server/vitest.config.ts) leaves it out, it needs haproxy and a PostgreSQL server, and
 * its steps share the processes, so they run in order in one file.
 */
export default defineConfig({
  test: {
    include: ['test/cluster/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    maxWorkers: 1,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});

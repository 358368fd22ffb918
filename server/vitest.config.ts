import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    // The multi-process test has its own command (npm run test:cluster): it needs haproxy and PostgreSQL.
    exclude: [...configDefaults.exclude, 'test/cluster/**'],
    environment: 'node',
    pool: 'forks',
    // Each file gets its own database; two workers match the two cores CI has.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});

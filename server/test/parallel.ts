import { describe } from 'vitest';

/**
 * Concurrency tests (issue 10 §3) need a real PostgreSQL: the embedded PGlite runs one query at a time on one
 * connection, so requests never interleave and a race cannot show. CI runs the server suite again with DATABASE_URL.
 */
export const onPostgres = Boolean(process.env.DATABASE_URL);
export const SKIP_REASON =
  'needs PostgreSQL (DATABASE_URL unset: PGlite runs one query at a time and cannot race)';

/** `describe` on PostgreSQL; skipped (with the reason in its name) on PGlite. */
export function describeRaces(name: string, fn: () => void) {
  describe.skipIf(!onPostgres)(onPostgres ? name : `${name} [skipped: ${SKIP_REASON}]`, fn);
}

/**
 * Fires `n` calls at once and waits for all: app.inject requests run concurrently, each on its own pooled
 * connection (db/connect.ts, pool of 10), so reads and writes of different requests interleave as in production.
 */
export function parallel<T>(n: number, call: (i: number) => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => call(i)));
}

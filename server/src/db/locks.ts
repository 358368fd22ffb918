import { sql, type Transaction } from 'kysely';
import type { Database } from './schema';

/**
 * Transaction-scoped advisory locks for read-then-write paths that have no row to lock yet (ARCHITECTURE "Writes
 * that stay right"): e.g. a (user, course) pair whose latest_results row may not exist. Held until the transaction
 * ends; a second transaction asking for the same key waits, then reads what the first committed (READ COMMITTED
 * takes a new snapshot per statement).
 *
 * Keys are 64-bit hashes of `namespace:part:part`, in the one-bigint key space (content/links.ts uses the separate
 * two-int4 space). Two different keys that hash alike only wait for each other; they never skip a lock. Keys are
 * taken sorted, so two transactions locking overlapping sets never wait for each other in a cycle.
 */
export async function lockKeys(
  trx: Transaction<Database>,
  namespace: string,
  keys: readonly (readonly (number | string)[])[],
): Promise<void> {
  const names = [...new Set(keys.map((parts) => [namespace, ...parts].join(':')))];
  if (names.length === 0) return;
  await sql`SELECT pg_advisory_xact_lock(k) FROM (
      SELECT DISTINCT hashtextextended(n, 0) AS k FROM unnest(${names}::text[]) AS n ORDER BY 1) AS keys`.execute(
    trx,
  );
}

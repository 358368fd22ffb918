import type { Db } from '../db/connect';
import { registerJob, registerRecurring, unchangedWhenNone } from '../jobs/queue';
import { releasePlaces } from './capacity';
import { lockDuePending, setDelegateStatus } from './delegate-queries';
import { delegateChanged } from './effects';
import { lockExpiredOffers, offerFreedPlaces } from './waitlist';

/**
 * The delegates' recurring work (issue 15), each run a transaction of its own, safe to run twice or side by side
 * (rows are taken FOR UPDATE SKIP LOCKED and re-checked under the lock):
 * - EXPIRE_OFFERS (every 5 min): an offered place not claimed by offer_expires_at goes back: the delegate is
 *   waitlisted again at the back of the queue (waitlisted_at = now), the place is released and offered to the next.
 * - AUTO_ACCEPT_DELEGATES (every 15 min): a pending delegate the provider did not act on within the provider's
 *   delegate_auto_accept_period hours is accepted.
 */
export const EXPIRE_OFFERS = 'bookings-expire-offers';
export const AUTO_ACCEPT_DELEGATES = 'bookings-auto-accept-delegates';
export const EXPIRE_OFFERS_EVERY_MS = 5 * 60_000;
export const AUTO_ACCEPT_EVERY_MS = 15 * 60_000;

/** Expired offers back to the waitlist, their places offered on. Returns how many expired. */
export async function expireOffers(db: Db, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const expired = await lockExpiredOffers(trx, now);
    const sessions = new Set<number>();
    for (const d of expired) {
      await setDelegateStatus(trx, d.id, { status: 'waitlisted', now, waitlistedAt: now });
      await releasePlaces(trx, d.session_id, 1);
      await delegateChanged(trx, d.id, 'waitlisted', now);
      sessions.add(d.session_id);
    }
    for (const sessionId of sessions) await offerFreedPlaces(trx, sessionId, now);
    return expired.length;
  });
}

/** Pending delegates past the provider's auto-accept period, accepted. Returns how many. */
export async function autoAcceptDelegates(db: Db, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const due = await lockDuePending(trx, now);
    for (const d of due) {
      await setDelegateStatus(trx, d.id, { status: 'accepted', now });
      await delegateChanged(trx, d.id, 'accepted', now);
    }
    return due.length;
  });
}

let registered = false;
export function registerDelegateJobs(): void {
  if (registered) return;
  registered = true;
  registerJob(EXPIRE_OFFERS, async (ctx) => unchangedWhenNone(await expireOffers(ctx.db, ctx.now)));
  registerRecurring(EXPIRE_OFFERS, EXPIRE_OFFERS_EVERY_MS);
  registerJob(AUTO_ACCEPT_DELEGATES, async (ctx) =>
    unchangedWhenNone(await autoAcceptDelegates(ctx.db, ctx.now)),
  );
  registerRecurring(AUTO_ACCEPT_DELEGATES, AUTO_ACCEPT_EVERY_MS);
}

import type { Trx } from '../results/queries';

/**
 * What delegates and their managers are told when a booking or a session changes (issue 15): iCal invites by e-mail
 * (REQUEST with a rising SEQUENCE, CANCEL on removal or cancellation) and in-app notices. Called by the session and
 * delegate services inside their transaction, after the row has changed; anything sent goes out through the job
 * queue after commit.
 */
export type DelegateEvent =
  | 'requested'
  | 'booked'
  | 'waitlisted'
  | 'offered'
  | 'accepted'
  | 'declined'
  | 'removed'
  | 'restored'
  | 'approved'
  | 'marked';
export type SessionEvent = 'updated' | 'cancelled' | 'confirmed' | 'completed' | 'incomplete';

export async function delegateChanged(
  _trx: Trx,
  _delegateId: number,
  _event: DelegateEvent,
  _now: Date,
): Promise<void> {}

export async function sessionChanged(
  _trx: Trx,
  _sessionId: number,
  _event: SessionEvent,
  _now: Date,
): Promise<void> {}

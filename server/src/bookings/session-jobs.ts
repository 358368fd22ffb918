import { TRAINING_PROVIDER_DEFAULTS } from '@cc/contracts';
import type { Deps } from '../http/context';
import { registerJob, registerRecurring, unchangedWhenNone } from '../jobs/queue';
import { sessionChanged } from './effects';
import { decideSession, dueForDecision, reasonIdByName } from './session-queries';

/**
 * The minimum-delegates decision (issue 15 "Minimum delegates decides"): at `minimum_decision_hours` before the
 * start (the owner's training provider settings, the contract's defaults when it has none), a scheduled session
 * is confirmed when it holds at least `minDelegates` places; otherwise `under_minimum_action` cancels it (reason
 * 'Too few delegates') or confirms it anyway. Everyone is told through effects.sessionChanged.
 *
 * Each session is decided in its own transaction by a guarded UPDATE (still scheduled and undecided), so two
 * workers running the job at once never decide a session twice; a late booking waiting on the row's lock is
 * counted or refused, never lost.
 */
export const DECIDE_MINIMUMS = 'bookings.decide-minimums';
export const DECIDE_EVERY_MS = 15 * 60 * 1000;
export const TOO_FEW_DELEGATES = 'Too few delegates';

const DEFAULTS = {
  hours: TRAINING_PROVIDER_DEFAULTS.minimum_decision_hours,
  action: TRAINING_PROVIDER_DEFAULTS.under_minimum_action,
};

export async function decideMinimums(
  deps: Pick<Deps, 'db'>,
  now: Date,
): Promise<{ confirmed: number[]; cancelled: number[] }> {
  const out = { confirmed: [] as number[], cancelled: [] as number[] };
  const ids = await dueForDecision(deps.db, now, DEFAULTS);
  if (ids.length === 0) return out;
  const reasonId = await reasonIdByName(deps.db, TOO_FEW_DELEGATES);
  for (const id of ids) {
    const status = await deps.db.transaction().execute(async (trx) => {
      const decided = await decideSession(trx, id, now, DEFAULTS, reasonId);
      if (decided) await sessionChanged(trx, id, decided, now);
      return decided;
    });
    if (status) out[status].push(id);
  }
  return out;
}

let registered = false;
export function registerSessionJobs(): void {
  if (registered) return;
  registered = true;
  registerJob(DECIDE_MINIMUMS, async (ctx) => {
    const { confirmed, cancelled } = await decideMinimums(ctx, ctx.now);
    return unchangedWhenNone(confirmed.length + cancelled.length);
  });
  registerRecurring(DECIDE_MINIMUMS, DECIDE_EVERY_MS);
}

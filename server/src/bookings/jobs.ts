import { registerCalendarJobs } from './calendar-jobs';
import { registerDelegateJobs } from './delegate-jobs';
import { registerSessionJobs } from './session-jobs';

/** Face-to-face training's recurring work: the minimum-delegates decision, offer expiry, auto-accept. */
export function registerBookingJobs(): void {
  registerSessionJobs();
  registerDelegateJobs();
  registerCalendarJobs();
}

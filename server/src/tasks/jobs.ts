import { registerBulkAttemptsJob } from './bulk-attempts';

/** Issue 18: the tasks capability's job handlers (registered by register-jobs.ts). */
export function registerTaskJobs(): void {
  registerBulkAttemptsJob();
}

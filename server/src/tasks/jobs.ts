import { registerBulkAttemptsJob } from './bulk-attempts';

/** Issue 18: the tasks capability's job handlers (registered by jobs/index.ts). */
export function registerTaskJobs(): void {
  registerBulkAttemptsJob();
}

// Composition (issue 34 §1): the job queue (jobs/) is a lower layer and knows no capability; the registry of every
// capability's handlers sits here, at the top beside bootstrap.ts and main.ts.
import { registerAuthJobs } from './auth/mail-jobs';
import { registerBookingJobs } from './bookings/jobs';
import { registerDataProtectionJobs } from './data-protection/jobs';
import { registerHelpJobs } from './help/contact';
import { registerImporterJobs } from './importer/jobs';
import { registerMailJobs } from './mail/jobs';
import { registerMatrixJobs } from './matrix/report';
import { registerMessagingJobs } from './messaging/jobs';
import { registerNotificationJobs } from './notifications/jobs';
import { registerScheduleJobs } from './presets/schedules-jobs';
import { registerReportJobs } from './reports/jobs';
import { registerExemptionJobs } from './results/exemption-end';
import { registerTaskJobs } from './tasks/jobs';
import { registerWebhookJobs } from './webhooks/jobs';

/** Every capability's job handlers; a process calls this once before it starts the worker (or runs jobs in tests). */
export function registerAllJobs(): void {
  registerMailJobs();
  registerAuthJobs();
  registerScheduleJobs();
  registerMatrixJobs();
  registerReportJobs();
  registerMessagingJobs();
  registerNotificationJobs();
  registerHelpJobs();
  registerBookingJobs();
  registerWebhookJobs();
  registerImporterJobs();
  registerTaskJobs();
  registerDataProtectionJobs();
  registerExemptionJobs();
}

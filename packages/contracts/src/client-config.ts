import { z } from 'zod';

/**
 * GET /api/client-config (issue 18, no login): the web app's runtime settings, so one build serves every deployment.
 * Each part is null when its setting is unset (the feature is off). docs/error-reporting.md "Error reporting and analytics".
 */
export const ClientConfig = z.object({
  errorReporting: z
    .object({ dsn: z.string(), environment: z.string(), tracesSampleRate: z.number() })
    .nullable(),
  analytics: z.object({ measurementId: z.string(), requiresConsent: z.boolean() }).nullable(),
});
export type ClientConfig = z.infer<typeof ClientConfig>;

/** spec 1 §9: error-reporting trace sampling rate. */
export const ERROR_REPORTING_TRACES_SAMPLE_RATE = 0.1;

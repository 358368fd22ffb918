import { type ClientConfig, ERROR_REPORTING_TRACES_SAMPLE_RATE } from '@cc/contracts';
import type * as SentryModule from '@sentry/node';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * The server's own unhandled errors, reported to a Sentry-protocol endpoint (issue 18; spec 1 §8, §9) when SENTRY_DSN
 * is set, and nothing at all when it is not. What leaves: the error (type, message, stack), the method, the route's
 * pattern (/api/users/:id, never the address with its ids or query) and the release. Never: request bodies, cookies,
 * headers (so no authorization, XSRF or session), query strings, the user or their IP address.
 */

/**
 * The SDK once SENTRY_DSN turned reporting on, else null. Loaded then and only then: importing @sentry/node costs
 * every server process ~20 MB of memory (issue 36 §2: the PDF export's 256 MB), most of which run without a DSN.
 */
let Sentry: typeof SentryModule | null = null;

/** Drops whatever request data an integration may have attached, whatever the SDK version adds by default. */
export function scrubEvent<E extends SentryModule.ErrorEvent>(event: E): E {
  if (event.request) {
    const { method, url } = event.request;
    event.request = { method, url: url ? url.split('?')[0] : undefined };
  }
  delete event.user;
  if (event.contexts) delete event.contexts.request;
  event.server_name = undefined;
  return event;
}

export async function initErrorReporting(
  config: Pick<Config, 'sentryDsn' | 'env'>,
  release?: string,
): Promise<boolean> {
  if (!config.sentryDsn) return false;
  const sdk = await import('@sentry/node');
  sdk.init({
    dsn: config.sentryDsn,
    environment: config.env,
    release,
    // spec 1 §9: trace sampling 0.1.
    tracesSampleRate: ERROR_REPORTING_TRACES_SAMPLE_RATE,
    sendDefaultPii: false,
    // The SDK's automatic instrumentation (http, database drivers, process hooks) is not wanted: the error handler
    // decides what is reported, and nothing about requests is gathered behind its back.
    defaultIntegrations: false,
    beforeSend: (event) => scrubEvent(event),
  });
  Sentry = sdk;
  return true;
}

/** The 5xx an error handler answered with (4xx are the caller's doing and never reported). */
export function reportServerError(error: unknown, request: FastifyRequest, status: number): void {
  const sdk = Sentry;
  if (!sdk || status < 500) return;
  sdk.withScope((scope) => {
    scope.setTag('status', String(status));
    scope.setTag('method', request.method);
    scope.setTag('route', request.routeOptions?.url ?? 'unknown');
    scope.setContext('request', null);
    sdk.captureException(error);
  });
}

/** Sends what is queued (at shutdown, and in tests). */
export async function flushErrorReporting(timeoutMs = 2000): Promise<boolean> {
  return Sentry ? Sentry.flush(timeoutMs) : true;
}

/** Turns reporting off again (tests). */
export async function closeErrorReporting(): Promise<void> {
  const sdk = Sentry;
  if (!sdk) return;
  Sentry = null;
  await sdk.close(2000);
}

/** What the web app is told at start (GET /api/client-config): the browser DSN and analytics id, or null (off). */
export function clientConfigOf(config: Pick<Config, 'sentryBrowserDsn' | 'env' | 'analytics'>): ClientConfig {
  return {
    errorReporting: config.sentryBrowserDsn
      ? {
          dsn: config.sentryBrowserDsn,
          environment: config.env,
          tracesSampleRate: ERROR_REPORTING_TRACES_SAMPLE_RATE,
        }
      : null,
    analytics: config.analytics ?? null,
  };
}

/** Where a DSN's envelopes go (its origin), for the CSP's connect-src. */
export const dsnOrigin = (dsn: string | undefined): string | null => (dsn ? new URL(dsn).origin : null);

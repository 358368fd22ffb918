import { type ClientConfig, ERROR_REPORTING_TRACES_SAMPLE_RATE } from '@cc/contracts';
import * as Sentry from '@sentry/node';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * The server's own unhandled errors, reported to a Sentry-protocol endpoint (issue 18; spec 1 §8, §9) when SENTRY_DSN
 * is set, and nothing at all when it is not. What leaves: the error (type, message, stack), the method, the route's
 * pattern (/api/users/:id, never the address with its ids or query) and the release. Never: request bodies, cookies,
 * headers (so no authorization, XSRF or session), query strings, the user or their IP address.
 */

let enabled = false;

/** Drops whatever request data an integration may have attached, whatever the SDK version adds by default. */
export function scrubEvent<E extends Sentry.ErrorEvent>(event: E): E {
  if (event.request) {
    const { method, url } = event.request;
    event.request = { method, url: url ? url.split('?')[0] : undefined };
  }
  delete event.user;
  if (event.contexts) delete event.contexts.request;
  event.server_name = undefined;
  return event;
}

export function initErrorReporting(config: Pick<Config, 'sentryDsn' | 'env'>, release?: string): boolean {
  if (!config.sentryDsn) return false;
  Sentry.init({
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
  enabled = true;
  return true;
}

/** The 5xx an error handler answered with (4xx are the caller's doing and never reported). */
export function reportServerError(error: unknown, request: FastifyRequest, status: number): void {
  if (!enabled || status < 500) return;
  Sentry.withScope((scope) => {
    scope.setTag('status', String(status));
    scope.setTag('method', request.method);
    scope.setTag('route', request.routeOptions?.url ?? 'unknown');
    scope.setContext('request', null);
    Sentry.captureException(error);
  });
}

/** Sends what is queued (at shutdown, and in tests). */
export async function flushErrorReporting(timeoutMs = 2000): Promise<boolean> {
  if (!enabled) return true;
  return Sentry.flush(timeoutMs);
}

/** Turns reporting off again (tests). */
export async function closeErrorReporting(): Promise<void> {
  if (!enabled) return;
  enabled = false;
  await Sentry.close(2000);
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

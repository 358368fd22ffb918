import type { ClientConfig } from '@cc/contracts';
import { routePatternStore } from '../route-meta';

/**
 * spec 1 §8: errors error reporting never sends. Each is noise from the browser, not a fault of the app:
 * - postMessage: extensions and embedded players (H5P, SCORM frames) posting to a window that went away;
 * - a dynamically imported module that failed to load: a deploy replaced the chunk under an open tab (a reload fixes it);
 * - a non-error promise rejection: a library rejecting with a plain value, which carries no stack to act on;
 * - a redirect while navigating: the router's own "redirect" control flow thrown through a loader.
 */
export const IGNORED_ERRORS: RegExp[] = [
  /postMessage/i,
  /Failed to fetch dynamically imported module/i,
  /error loading dynamically imported module/i,
  /Importing a module script failed/i,
  /Non-Error promise rejection captured/i,
  /Object captured as promise rejection with keys/i,
  /\bredirect(ed)? (while|during) navigat/i,
  /Navigation (was )?(cancelled|aborted|redirected)/i,
];

export const isIgnoredError = (message: string): boolean => IGNORED_ERRORS.some((p) => p.test(message));

let started = false;

/**
 * @sentry/react, started only with a DSN from the server's runtime configuration (GET /api/client-config): without
 * one the SDK is not even downloaded. No personal data: no IP address, cookies or request bodies (sendDefaultPii off),
 * and breadcrumbs keep the route pattern, never the address with its ids.
 */
export async function startErrorReporting(config: ClientConfig['errorReporting']): Promise<boolean> {
  if (!config?.dsn || started) return false;
  started = true;
  const Sentry = await import('@sentry/react');
  Sentry.init({
    dsn: config.dsn,
    environment: config.environment,
    release: import.meta.env.VITE_APP_RELEASE,
    tracesSampleRate: config.tracesSampleRate,
    ignoreErrors: IGNORED_ERRORS,
    sendDefaultPii: false,
    integrations: [Sentry.browserTracingIntegration()],
    // Traces go to our own API only: no trace headers to other sites.
    tracePropagationTargets: [/^\/(api|graphql)\b/],
    // The page as its route pattern (/users/*), never its address: ids and search text stay here.
    beforeSend(event) {
      event.request = { url: `${window.location.origin}${routePatternStore.get()}` };
      delete event.user;
      return event;
    },
    beforeBreadcrumb(crumb) {
      if (crumb.category === 'navigation') return { ...crumb, data: { to: routePatternStore.get() } };
      if ((crumb.category === 'fetch' || crumb.category === 'xhr') && typeof crumb.data?.url === 'string')
        return { ...crumb, data: { ...crumb.data, url: crumb.data.url.split('?')[0] } };
      return crumb;
    },
  });
  return true;
}

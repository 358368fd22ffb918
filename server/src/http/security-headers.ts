import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { Config } from '../config';

/**
 * Security headers on every answer (issue 11 §6, ASVS 14.4): API JSON, the web app's files, errors and GraphQL,
 * through @fastify/helmet. The one exception is a package file being served (routes marked ownsSecurityHeaders): its
 * route sets its own Content-Security-Policy, framing and referrer rules for untrusted code (packages/routes.ts), and
 * nothing here may loosen or replace them. Anything else under /packages/ is a 404 with the app's headers.
 */

/** The matrix's live updates (realtime/): the websocket at the app's own address. */
function websocketOrigin(appUrl: string): string {
  const url = new URL(appUrl);
  return `${url.protocol === 'https:' ? 'wss:' : 'ws:'}//${url.host}`;
}

/** GA4's script (gtag.js) and where it sends page views. */
export const ANALYTICS_SCRIPT_ORIGIN = 'https://www.googletagmanager.com';
export const ANALYTICS_CONNECT_ORIGINS = [
  'https://www.googletagmanager.com',
  'https://*.google-analytics.com',
  'https://*.analytics.google.com',
];

/**
 * The web app's policy. Scripts only from our files (no inline script, no eval); no plugins; no <base> elsewhere;
 * never framed by another site; forms post only to us. Styles only from our files too: the built app ships
 * stylesheets, and React's style props are set through the DOM (not markup), which a policy does not govern; the
 * browser suites (web/e2e, which fail on any violation) find none, H5P and SCORM players included. Images: ours,
 * data: and blob: (previews of chosen files), and https: because author rich text may show images from any https
 * address (content/sanitize.ts). Frames: the package player only: the package origin (PACKAGE_ORIGIN, issue 11
 * finding 1) when there is one, else our own /packages/* (served sandboxed, an opaque origin).
 */
export function contentSecurityPolicy(
  config: Pick<Config, 'appUrl' | 'packageOrigin'> & Partial<Pick<Config, 'sentryBrowserDsn' | 'analytics'>>,
): Record<string, string[]> {
  const https = config.appUrl.startsWith('https://');
  // Issue 18: only when configured, the error-reporting host (the browser DSN's origin) and the analytics script and
  // collection hosts (GA4) are allowed; unset, the policy is exactly as before.
  const reporting = config.sentryBrowserDsn ? [new URL(config.sentryBrowserDsn).origin] : [];
  const analytics = config.analytics ? ANALYTICS_CONNECT_ORIGINS : [];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...(config.analytics ? [ANALYTICS_SCRIPT_ORIGIN] : [])],
    'script-src-attr': ["'none'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:', 'blob:', 'https:'],
    'font-src': ["'self'", 'data:'],
    'media-src': ["'self'", 'blob:'],
    'connect-src': ["'self'", websocketOrigin(config.appUrl), ...reporting, ...analytics],
    'frame-src': config.packageOrigin ? ["'self'", config.packageOrigin] : ["'self'"],
    'worker-src': ["'self'", 'blob:'],
    'manifest-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'none'"],
    ...(https ? { 'upgrade-insecure-requests': [] } : {}),
  };
}

export function helmetOptions(config: SecurityHeadersOptions): HelmetOptions {
  const https = config.appUrl.startsWith('https://');
  return {
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config) },
    // Another site's page cannot keep a handle on ours (window.opener) once a user follows a link to it.
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Off: author content may show images from other sites, which would need their CORP/CORS opt-in.
    crossOriginEmbedderPolicy: false,
    // Our files load only into our pages, unless a separate web host (CORS_ORIGINS) shows them as images.
    crossOriginResourcePolicy: { policy: config.corsOrigins.length ? 'cross-origin' : 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // HSTS only where the app is served over https: on http it would be ignored, and it must not pin a test host.
    strictTransportSecurity: https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    xFrameOptions: { action: 'deny' },
    // nosniff, X-Powered-By removed, Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options,
    // X-Permitted-Cross-Domain-Policies and X-XSS-Protection: 0 are helmet's defaults.
  };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's successful answers carry their own security headers (package files, packages/routes.ts): helmet
     * leaves them alone. Its errors, and every other address under the same prefix, get the app's headers.
     */
    ownsSecurityHeaders?: boolean;
  }
}

/** A package file being served with its own policy; everything else (its 404s included) gets ours. */
const ownsItsHeaders = (request: FastifyRequest) => request.routeOptions.config?.ownsSecurityHeaders === true;

/**
 * Issue 29 §12: API answers hold personal data, so no browser or proxy keeps them (ASVS 8.2.1) unless the route says
 * otherwise (public white-label images, report files already marked private).
 */
const isApiAnswer = (url: string) => url.startsWith('/api/') || url.startsWith('/graphql');

/**
 * The help-desk layout's pages (spec 1 §2: /helpscout-app, /helpscout-auth) are made to be framed by a help-desk
 * tool: only their page answers take frame-ancestors from HELPDESK_FRAME_ANCESTORS (default none, as everywhere).
 * Their API calls keep the app's policy: a JSON answer is never framed.
 */
export const HELPDESK_PAGES = ['/helpscout-app', '/helpscout-auth'];
export function isHelpdeskPage(url: string): boolean {
  if (!url.startsWith('/helpscout-')) return false; // every other request, without splitting its address
  const path = (url.split(/[?#]/)[0] ?? '').replace(/\/$/, '');
  return HELPDESK_PAGES.includes(path);
}

/** helmet options for a help-desk page: the app's policy with the configured frame-ancestors. */
export function helpdeskHelmetOptions(config: SecurityHeadersOptions): HelmetOptions {
  const ancestors = config.helpdeskFrameAncestors ?? [];
  if (!ancestors.length) return {};
  return {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: { ...contentSecurityPolicy(config), 'frame-ancestors': ancestors },
    },
    // X-Frame-Options has no "allow these origins" (ALLOW-FROM is gone from browsers): frame-ancestors decides.
    xFrameOptions: false,
  };
}

export type SecurityHeadersOptions = Pick<Config, 'appUrl' | 'corsOrigins' | 'packageOrigin'> &
  Partial<Pick<Config, 'helpdeskFrameAncestors' | 'sentryBrowserDsn' | 'analytics'>>;

/**
 * The headers of a policy as a function applied to an answer. helmet works them out once, here, against a recorder
 * (every option is static: no nonce, nothing read from the request), and each answer gets them through Fastify's own
 * header list. Before, helmet's middleware ran on every answer (issue 36 §2: @fastify/helmet's reply.helmet() first
 * built the whole policy anew each time, ~4 % of the server's CPU under the API-read load; then the built middleware
 * still cost ~4 %, thirteen setHeader calls on the raw response, each validated, which also sent Node down its slow
 * path of merging two header lists when the answer was written).
 */
function headersOf(options: HelmetOptions): (reply: FastifyReply) => void {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: () => {}, // X-Powered-By: Fastify never sets it
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  if (!headers['content-security-policy']) throw new Error('security headers: helmet set no policy');
  return (reply) => {
    reply.headers(headers);
  };
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance, config: SecurityHeadersOptions) => {
  const appOptions = helmetOptions(config);
  const appHeaders = headersOf(appOptions);
  // A help-desk page: the app's policy with its own framing (as reply.helmet(options) merged them).
  const helpdeskHeaders = headersOf({ ...appOptions, ...helpdeskHelmetOptions(config) } as HelmetOptions);
  // The headers are applied by the hook below, not to every route, so the package routes can be left out by path
  // whatever their route options are.
  // Callback hooks (here and in the other per-request hooks that do not wait): an async hook costs every request a
  // promise and a microtask turn, and these run on every answer (issue 36 §2, the API-read profile).
  app.addHook('onRequest', (request, reply, done) => {
    if (!ownsItsHeaders(request)) {
      if (isHelpdeskPage(request.url)) helpdeskHeaders(reply);
      else appHeaders(reply);
    }
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    // A package route that failed (a bad token, a missing file) answers as the app does.
    if (ownsItsHeaders(request) && reply.statusCode >= 400) appHeaders(reply);
    if (isApiAnswer(request.url) && !reply.hasHeader('cache-control'))
      reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});

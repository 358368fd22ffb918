import { ACTING_AS_HEADER, CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '@cc/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ActorCache, actorForRequest, type CachedCaller } from '../auth/actor-cache';
import { actorLookups } from '../auth/actor-lookups';
import { findSessionCaller, findTokenCaller } from '../auth/callers';
import { isGuestCsrfToken } from '../auth/guest-csrf';
import {
  type SessionRecord,
  sessionLifetimeOf,
  tokenEnd,
  touchAccessToken,
  touchSession,
} from '../auth/queries';
import { type Ctx, type Deps, requestCtx } from './context';
import { cookieName, cookieOptions } from './cookies';
import { csrfMismatch, sessionExpired, unauthenticated } from './errors';
import { safeEqual } from './tokens';
import { emptyOnWrites } from './write-aware-cache';

declare module 'fastify' {
  interface FastifyRequest {
    ctx: Ctx;
    session: SessionRecord | null;
    /** The caller's credential as the caches key it ('t:' bearer token, 's:' session secret); null: none sent. */
    credential: string | null;
  }
  interface FastifyContextConfig {
    /**
     * 'session': a web-session route (login): needs the csrf-cookie token even when logged out (a signed-out browser's
     * is signed, not stored: auth/guest-csrf.ts).
     * 'session-or-json': the same for browsers, but a cookieless JSON call (the mobile shell) is accepted: a
     * cross-site form cannot send JSON, and a cross-site script cannot without a CORS preflight we refuse.
     */
    csrf?: 'session' | 'session-or-json' | 'off';
    /** false: answers anonymous callers (login, reset, white-label, version…). Every other /api route needs a caller. */
    auth?: false;
    /**
     * true: a POST that only reads (a report asked for with a body, an export): it still needs the CSRF header, but it
     * leaves the caller and read caches alone. Without it, every compliance report asked for emptied both caches, and
     * under 200 clients each flush cost every caller four queries to load again (the mixed-load profile, issue 12 §2).
     * A report e-mailed later only queues a job, which no cached answer shows.
     */
    readOnly?: true;
    /** true: a POST that writes only what no cached caller or answer holds (a device login: its own new token). */
    keepsCaches?: true;
    /**
     * true: an operator's probe (/health/*, /metrics: http/health.ts, http/metrics.ts). No caller is looked up, so a
     * cookie or a bearer header (the metrics token) never costs a database query, and /health/live none at all.
     */
    probe?: true;
    /**
     * true: a sign-in route (login, the csrf cookie before it, unlock, forgot and reset password). The whole request,
     * its caller lookup included, runs on the sign-in lane (Deps.signInDb, issue 36 §2): under a read load that keeps
     * every connection of the main pool busy, a person still signs in within a second.
     */
    signIn?: true;
  }
}

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** A state-changing request: it needs the CSRF header, and it empties every WriteAwareCache when it ends. */
export const isStateChanging = (request: FastifyRequest) => UNSAFE.has(request.method);
/** A state-changing request that may have changed what a cache holds: all but read-only reports and device logins. */
export function invalidatesCaches(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  return isStateChanging(request) && config?.readOnly !== true && config?.keepsCaches !== true;
}

/**
 * Who is calling, for every request: a Bearer token (mobile, integrations) or the session cookie (web, with the
 * X-XSRF-TOKEN header on every state-changing request: spec 1 §7, 419 on mismatch or expired session).
 */
async function authenticate(deps: Deps, cache: ActorCache, request: FastifyRequest): Promise<void> {
  const now = deps.clock();
  // Read once: Fastify builds routeOptions anew on every read.
  const routeConfig = request.routeOptions.config;
  const db = routeConfig?.signIn === true ? deps.signInDb : deps.db;
  const ctx = requestCtx(deps, {
    db,
    ip: request.ip ?? null,
    userAgent: request.headers['user-agent'] ?? null,
    log: request.log,
  });
  request.ctx = ctx;
  request.session = null;
  request.credential = null;
  if (routeConfig?.probe === true) return;

  const authorization = request.headers.authorization;
  if (authorization?.startsWith('Bearer ')) {
    const plain = authorization.slice(7).trim();
    request.credential = `t:${plain}`;
    const caller = await cached(cache, request.credential, async () => ({
      session: null,
      ...(await findTokenCaller(db, plain, now, deps.config.tokenLifetimeDays)),
    }));
    // A remembered token still ends on time.
    if (caller.token && tokenEnd(caller.token, deps.config.tokenLifetimeDays) > now) {
      ctx.actor = actorForRequest(caller.actor);
      await touchAccessToken(db, caller.token, now, ctx.ip);
    }
  } else {
    const secret = request.cookies[cookieName(deps.config, SESSION_COOKIE)];
    request.credential = secret ? `s:${secret}` : null;
    const caller = secret
      ? await cached(cache, `s:${secret}`, async () => ({
          token: null,
          ...(await findSessionCaller(db, secret, now, sessionLifetimeOf(deps.config))),
        }))
      : null;
    // A remembered session still ends on time.
    const session = caller?.session && caller.session.expires_at > now ? caller.session : null;
    request.session = session;
    const csrfMode = routeConfig?.csrf;
    const needsSession = csrfMode === 'session' || (csrfMode === 'session-or-json' && !isJson(request));
    // A browser that holds a session or a signed-out csrf cookie sends the header on every state change; so does
    // any browser on a web-session route.
    const guestCookie = !secret && !!request.cookies[cookieName(deps.config, CSRF_COOKIE)];
    if (isStateChanging(request) && csrfMode !== 'off' && (secret || guestCookie || needsSession)) {
      const expected = session?.csrf_token ?? (secret ? null : await guestCsrfOf(ctx, request, now));
      if (!expected) throw sessionExpired();
      const header = request.headers[CSRF_HEADER];
      if (typeof header !== 'string' || !safeEqual(decodeURIComponent(header), expected))
        throw csrfMismatch();
    }
    if (session?.user_id && caller) {
      ctx.actor = actorForRequest(caller.actor);
      await touchSession(db, session, now, sessionLifetimeOf(deps.config));
    }
  }

  const actingAs = actingAsSlug(request);
  if (ctx.actor && actingAs)
    ctx.actor.actingAs = await actorLookups().resolveActingAs(ctx, actingAs, ctx.actor);
}

/** The remembered caller for a credential, or a fresh load remembered unless a write happened meanwhile. */
async function cached(
  cache: ActorCache,
  key: string,
  load: () => Promise<CachedCaller>,
): Promise<CachedCaller> {
  const hit = cache.get(key, Date.now());
  if (hit) return hit;
  const generation = cache.current();
  const fresh = await load();
  cache.set(key, fresh, generation, Date.now());
  return fresh;
}

/** A signed-out browser's XSRF-TOKEN cookie, when this server signed it and it is still fresh (auth/guest-csrf.ts). */
async function guestCsrfOf(ctx: Ctx, request: FastifyRequest, now: Date): Promise<string | null> {
  const token = request.cookies[cookieName(ctx.config, CSRF_COOKIE)];
  if (!token) return null;
  return (await isGuestCsrfToken(ctx.db, token, now, ctx.config.sessionLifetimeMinutes)) ? token : null;
}

const isJson = (request: FastifyRequest) =>
  (request.headers['content-type'] ?? '').startsWith('application/json');

function requiresCaller(request: FastifyRequest, config: Deps['config']): boolean {
  const { url = '', config: routeConfig } = request.routeOptions;
  // The API documentation (page, JSON, assets) describes every route: open while developing and in the test suites,
  // for signed-in callers only in production (issue 11 §9; GraphQL's introspection follows the same rule).
  if (url.startsWith('/api/docs')) return config.env === 'production';
  // GraphQL answers anonymous callers in its own error format (UNAUTHENTICATED).
  if (!url.startsWith('/api/') || url.startsWith('/api/graphql')) return false;
  return routeConfig?.auth !== false;
}

export function actingAsSlug(request: FastifyRequest): string | null {
  const header = request.headers[ACTING_AS_HEADER];
  if (typeof header === 'string' && header) return header;
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = query?.actingAs;
  return typeof fromQuery === 'string' && fromQuery ? fromQuery : null;
}

/**
 * The cookies of a signed-in session. They last as long as the session can (its absolute lifetime): the server
 * decides when it ends, idle or not, so an active user is not signed out by the browser at the idle lifetime.
 */
export function setSessionCookies(reply: FastifyReply, deps: Deps, secret: string, csrfToken: string): void {
  const { config } = deps;
  const maxAge = config.sessionAbsoluteLifetimeHours * 3600;
  reply.setCookie(
    cookieName(config, SESSION_COOKIE),
    secret,
    cookieOptions(config, { httpOnly: true, maxAge }),
  );
  reply.setCookie(
    cookieName(config, CSRF_COOKIE),
    csrfToken,
    cookieOptions(config, { httpOnly: false, maxAge }),
  );
}

/** The session cookie's secret the browser sent (its __Host- name on https: http/cookies.ts). */
export const sessionCookieOf = (request: FastifyRequest, deps: Deps): string | undefined =>
  request.cookies[cookieName(deps.config, SESSION_COOKIE)];

/** A signed-out browser: the signed CSRF token only, no session cookie (and a stale one is dropped). */
export function setGuestCsrfCookie(
  reply: FastifyReply,
  deps: Deps,
  token: string,
  hadSessionCookie: boolean,
): void {
  const { config } = deps;
  const maxAge = config.sessionLifetimeMinutes * 60;
  if (hadSessionCookie)
    reply.clearCookie(cookieName(config, SESSION_COOKIE), cookieOptions(config, { httpOnly: true }));
  reply.setCookie(cookieName(config, CSRF_COOKIE), token, cookieOptions(config, { httpOnly: false, maxAge }));
}

export function clearSessionCookies(reply: FastifyReply, deps: Deps): void {
  const { config } = deps;
  reply.clearCookie(cookieName(config, SESSION_COOKIE), cookieOptions(config, { httpOnly: true }));
  reply.clearCookie(cookieName(config, CSRF_COOKIE), cookieOptions(config, { httpOnly: false }));
}

export const authenticationPlugin = fp(async (app: FastifyInstance, deps: Deps) => {
  app.decorateRequest('ctx', null as unknown as Ctx);
  app.decorateRequest('session', null);
  app.decorateRequest('credential', null);
  const cache = new ActorCache(deps.config.actorCacheMs);
  emptyOnWrites(app, deps.bus, cache);
  app.addHook('onRequest', async (request) => authenticate(deps, cache, request));
  // Any state-changing request may have changed who a caller is (login, logout, permissions, users): every process
  // forgets them all (here at once, the others within milliseconds: db/cache-bus.ts), and the read caches too.
  // onSend: before the client can see the answer and send its next request.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (invalidatesCaches(request)) deps.bus.publish({ topic: 'writes' });
    done(null, payload);
  });
  // 401 before the body is validated, so an anonymous caller never learns a route's schema from a 422.
  app.addHook('preValidation', (request, _reply, done) => {
    if (requiresCaller(request, deps.config) && !request.ctx.actor) throw unauthenticated();
    done();
  });
});

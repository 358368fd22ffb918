import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { actingAsSlug } from './authenticate';
import type { Deps } from './context';
import { emptyOnWrites, WriteAwareCache } from './write-aware-cache';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the read cache on a cacheable GET: where and in which generation its answer may be stored. */
    readCache: { key: string; generation: number } | null;
  }
  interface FastifyContextConfig {
    /**
     * true: a GET whose answer depends only on the caller (credential and acting-as), the host and the URL (and, on a
     * read-only POST, its body), so the same caller's repeat within ACTOR_CACHE_MS is answered from memory (any
     * state-changing request empties it).
     */
    readCache?: boolean;
  }
}

interface CachedAnswer {
  body: string;
  contentType: string;
}

/**
 * The everyday reads of a signed-in person (who am I, my permissions, the first page of my lists, the white-label),
 * asked again on every page of the web app and by every poll of the mobile shell, answered from memory for up to
 * ACTOR_CACHE_MS (30 s by default): the API-read p95 target at 200 concurrent clients. Keys hold the caller's own
 * credential, so one caller's answer is never another's. The lookup runs after authentication and the password gate
 * (both earlier preValidation hooks), so a cached answer still needs a live caller; the schema check, the handler and
 * serialisation are skipped.
 */
export const readCachePlugin = fp(async (app: FastifyInstance, deps: Deps) => {
  const cache = new WriteAwareCache<CachedAnswer>(deps.config.actorCacheMs);
  app.decorateRequest('readCache', null);
  if (!cache.enabled) return;
  // Emptied by every state-changing request of any process: the authentication plugin publishes 'writes' on the
  // cache bus in its onSend, which runs before this one.
  emptyOnWrites(app, deps.bus, cache);

  // preValidation, after authentication and the password gate: a hit skips the route's schema check too (an answer
  // is stored only when it was a 200, so its URL and body passed that check when it was made).
  // Callback hooks (they never wait). A hit answers and does not call done: the request goes no further.
  app.addHook('preValidation', (request, reply, done) => {
    const key = cacheable(request) ? answerKey(request) : null;
    const hit = key ? cache.get(key, Date.now()) : null;
    if (hit) {
      reply.header('content-type', hit.contentType).send(hit.body);
      return;
    }
    if (key) request.readCache = { key, generation: cache.current() };
    done();
  });

  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.readCache && reply.statusCode === 200 && typeof payload === 'string') {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      cache.set(
        request.readCache.key,
        { body: payload, contentType },
        request.readCache.generation,
        Date.now(),
      );
    }
    done(null, payload);
  });
});

/**
 * A GET marked readCache, or a read-only POST marked readCache (the compliance report: its filters are its body, so
 * the body is part of the key) unless it asks for the report by e-mail, which must queue a mail each time.
 */
function cacheable(request: FastifyRequest): boolean {
  const config = request.routeOptions.config;
  if (config?.readCache !== true) return false;
  if (request.method === 'GET') return true;
  return request.method === 'POST' && config.readOnly === true && !bodyOf(request)?.emailFormat;
}

const bodyOf = (request: FastifyRequest) =>
  request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : null;

/**
 * The caller's credential (as authentication read it), acting-as, the host (the white-label answers by host) and the
 * URL with its query; null for an anonymous caller.
 */
function answerKey(request: FastifyRequest): string | null {
  if (!request.ctx?.actor || !request.credential) return null;
  const body = request.method === 'GET' ? '' : `\n${JSON.stringify(request.body)}`;
  return `${request.credential}\n${actingAsSlug(request) ?? ''}\n${request.host}${request.url}${body}`;
}

import type { FastifyCorsOptions } from '@fastify/cors';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../config';

/**
 * Who may call the API from another origin (spec 1 §1; issue 19).
 *
 * - CORS_ORIGINS: a separate web host of our own, which signs in with the session cookie, so its calls carry
 *   credentials (Access-Control-Allow-Credentials: true), for exactly those origins.
 * - MOBILE_ORIGINS: the Capacitor shell's page (capacitor://localhost, https://localhost). It signs in with a bearer
 *   token and sends no cookie, so its origin is allowed WITHOUT credentials: a browser then neither sends the
 *   user's cookies nor lets the page read an answer that used them. Any site can be served from "localhost" on a
 *   user's machine; what keeps it out is that it has no bearer token, not its origin.
 *
 * Never a wildcard: an origin that is in neither list gets no CORS headers at all. The downloads' file names are
 * read from Content-Disposition, so it is exposed.
 */
export function corsOptionsFor(
  config: Pick<Config, 'corsOrigins' | 'mobileOrigins'>,
  origin: string | undefined,
): FastifyCorsOptions {
  const common = { exposedHeaders: ['Content-Disposition'], maxAge: 600 };
  if (!origin) return { origin: false };
  if (config.corsOrigins.includes(origin)) return { ...common, origin, credentials: true };
  if (config.mobileOrigins.includes(origin)) return { ...common, origin, credentials: false };
  return { origin: false };
}

/** @fastify/cors options that decide per request by its Origin header. */
export function corsPluginOptions(config: Pick<Config, 'corsOrigins' | 'mobileOrigins'>): FastifyCorsOptions {
  return {
    delegator: (request: FastifyRequest, callback) =>
      callback(null, corsOptionsFor(config, request.headers.origin)),
  };
}

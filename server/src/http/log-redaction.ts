import type { FastifyRequest } from 'fastify';

/**
 * Issue 29 §10: request logs never hold a secret that travels in an address: password-reset, e-mail verification and
 * sign-up-link tokens, calendar-feed keys and package launch tokens all sit in a path segment or a query value. Rather
 * than a list of routes (which a new route would silently miss), anything shaped like a token is replaced: a path
 * segment or query value of 20 or more URL-safe characters mixing letters and digits. Ids, slugs and file names are
 * shorter or all letters, and stay readable.
 */
const TOKEN_SHAPED = /^(?=[^/]*[0-9])(?=[^/]*[A-Za-z])[A-Za-z0-9_\-.~%]{20,}$/;
export const REDACTED = '[redacted]';

const redactPart = (part: string) => (TOKEN_SHAPED.test(part) ? REDACTED : part);

export function redactUrl(url: string): string {
  const [pathname = '', query] = url.split(/\?(.*)/s, 2);
  const path = pathname
    .split('/')
    .map((segment) => {
      // A token with a file ending (/calendar/<key>.ics) is still a token.
      const dot = segment.lastIndexOf('.');
      const stem = dot > 0 ? segment.slice(0, dot) : segment;
      return TOKEN_SHAPED.test(stem)
        ? `${REDACTED}${dot > 0 ? segment.slice(dot) : ''}`
        : redactPart(segment);
    })
    .join('/');
  if (query === undefined) return path;
  const params = query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq < 0 ? pair : `${pair.slice(0, eq)}=${redactPart(pair.slice(eq + 1))}`;
    })
    .join('&');
  return `${path}?${params}`;
}

/** pino's request serializer with the address redacted (Fastify's default fields otherwise). */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

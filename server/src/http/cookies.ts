import { HOST_COOKIE_PREFIX } from '@cc/contracts';
import type { CookieSerializeOptions } from '@fastify/cookie';
import type { Config } from '../config';

/**
 * The server's cookie names and attributes (issue 29 §1, docs/package-content.md "Cookies"). Secure cookies (APP_URL on https) take
 * the __Host- prefix: the browser accepts such a cookie only with Secure, Path=/ and no Domain, so a page on a sibling
 * subdomain (packages.example.com next to app.example.com) cannot plant one for the app ("cookie tossing": a session
 * of the attacker's, or an XSRF token that signs the viewer out), and the server never reads the bare names then.
 * Plain http (local use) has no Secure cookies and keeps the bare names; config.ts refuses a package origin on the
 * app's site there.
 */
export function cookieName(config: Pick<Config, 'cookieSecure'>, name: string): string {
  return config.cookieSecure ? `${HOST_COOKIE_PREFIX}${name}` : name;
}

/** Path=/, SameSite=Lax, Secure on https, never a Domain (what the __Host- prefix demands). */
export function cookieOptions(
  config: Pick<Config, 'cookieSecure'>,
  options: { httpOnly: boolean; maxAge?: number },
): CookieSerializeOptions {
  return { path: '/', sameSite: 'lax', secure: config.cookieSecure, ...options };
}

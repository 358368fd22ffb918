import { CSRF_COOKIE, HOST_COOKIE_PREFIX } from '@cc/contracts';

export function readCookie(name: string): string | null {
  const prefix = `${name}=`;
  for (const part of document.cookie ? document.cookie.split(';') : []) {
    const item = part.trim();
    if (item.startsWith(prefix)) return item.slice(prefix.length);
  }
  return null;
}

/**
 * The server's XSRF token (issue 29 §1): __Host-XSRF-TOKEN when it runs on https, XSRF-TOKEN on plain http. The
 * prefixed one wins: a bare XSRF-TOKEN next to it may have been planted by a sibling subdomain, and the server on
 * https never reads the bare name.
 */
export function readCsrfCookie(): string | null {
  return readCookie(`${HOST_COOKIE_PREFIX}${CSRF_COOKIE}`) ?? readCookie(CSRF_COOKIE);
}

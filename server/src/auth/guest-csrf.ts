import { createHmac } from 'node:crypto';
import type { Db } from '../db/connect';
import { serverSecret } from '../db/server-secrets';
import { randomToken, safeEqual } from '../http/tokens';

/**
 * The CSRF token of a signed-out browser (issue 11 §12; spec 1 §7 "GET /sanctum/csrf-cookie, then POST /login").
 * Storing a session row for every anonymous csrf-cookie call let anyone fill the sessions table, so a guest gets a
 * signed double-submit token instead (OWASP CSRF cheat sheet): `<issued, base36>.<nonce>.<HMAC of both>`, in the
 * XSRF-TOKEN cookie, echoed in X-XSRF-TOKEN. The HMAC shows this server issued it (a token made up elsewhere, or
 * planted by a sibling site, fails); the header shows the request was made by a page that can read the cookie. It
 * lives as long as an idle session. Nothing is stored per token; the key is one row all processes share.
 */

/** The shared signing key. */
const signingKey = (db: Db) => serverSecret(db, 'guest_csrf');

const mac = (key: Buffer, issued: string, nonce: string) =>
  createHmac('sha256', key).update(`guest-csrf.${issued}.${nonce}`).digest('base64url');

export async function issueGuestCsrfToken(db: Db, now: Date): Promise<string> {
  const issued = now.getTime().toString(36);
  const nonce = randomToken(18);
  return `${issued}.${nonce}.${mac(await signingKey(db), issued, nonce)}`;
}

/** True for a token this server signed within the last `lifetimeMinutes` (a minute of clock skew allowed ahead). */
export async function isGuestCsrfToken(
  db: Db,
  token: string,
  now: Date,
  lifetimeMinutes: number,
): Promise<boolean> {
  const parts = token.split('.');
  if (parts.length !== 3 || token.length > 200) return false;
  const [issued = '', nonce = '', signature = ''] = parts;
  const at = Number.parseInt(issued, 36);
  if (!Number.isFinite(at)) return false;
  const age = now.getTime() - at;
  if (age > lifetimeMinutes * 60_000 || age < -60_000) return false;
  return safeEqual(signature, mac(await signingKey(db), issued, nonce));
}

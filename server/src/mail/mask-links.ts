/**
 * Issue 11 §11: without SMTP the outbox is the mail, and its messages hold working links (password reset, welcome,
 * e-mail verification, invitations…). The outbox view shows every link with its secret part masked, so reading the
 * outbox never lets a super admin (or whoever borrows their session) act as the recipient; the mailer still sends
 * the real link, and the stored row keeps it for re-sending.
 *
 * What counts as the secret, in any http(s) address of a message (text or HTML):
 * - the value of a query parameter whose name speaks of one (token, signature, code, key, secret, hash, otp…);
 * - any path segment or query value that looks generated: 20 or more letters, digits, `-` or `_` with at least one
 *   digit or capital (our tokens are 43 base64url characters; UUIDs and signed ids match too). Lower-case words
 *   joined by hyphens (a page's slug) stay readable.
 */
export const MASKED = '[hidden]';

// An address as it appears in plain text or in HTML (attribute values end at a quote, text at `<` or a space).
const ADDRESS = /\bhttps?:\/\/[^\s"'<>]+/gi;
// name=value after ? or & (HTML bodies write & as &#38; or &amp;).
const SECRET_PARAMETER =
  /([?&](?:#38;|amp;)?)([\w.-]*(?:token|signature|sig|secret|code|key|hash|otp|password|auth)[\w.-]*)=([^&\s"'<>]+)/gi;
const GENERATED = /[A-Za-z0-9_-]{20,}/g;
const DIGIT_OR_CAPITAL = /[0-9A-Z]/;

function maskAddress(address: string): string {
  // Keep scheme and host readable: only what follows the host can carry a secret.
  const start = address.indexOf('/', address.indexOf('//') + 2);
  if (start < 0) return address;
  const origin = address.slice(0, start);
  const rest = address
    .slice(start)
    .replace(SECRET_PARAMETER, (_m, separator: string, name: string) => `${separator}${name}=${MASKED}`)
    .replace(GENERATED, (run) => (DIGIT_OR_CAPITAL.test(run) ? MASKED : run));
  return origin + rest;
}

/** The text with the secret part of every address in it masked (null stays null). */
export function maskLinks<T extends string | null>(text: T): T {
  if (text === null) return text;
  return text.replace(ADDRESS, maskAddress) as T;
}

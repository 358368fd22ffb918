import { createHash } from 'node:crypto';
import { PAT_PREFIX, PAT_VISIBLE_CHARS } from '@cc/contracts';
import { hashToken, randomToken } from '../http/tokens';

/**
 * The personal access token's text: `ccpat_` + 32 random bytes in base64url (43 characters) + a 6-character
 * checksum of them (as GitHub's tokens carry a CRC32), so a secret scanner can tell a real-looking token from a
 * random string that happens to start with the prefix, offline.
 */
const SECRET_CHARS = 43;
const CHECKSUM_CHARS = 6;
const SHAPE = new RegExp(`^${PAT_PREFIX}[A-Za-z0-9_-]{${SECRET_CHARS + CHECKSUM_CHARS}}$`);

const checksumOf = (secret: string) =>
  createHash('sha256').update(secret).digest('base64url').slice(0, CHECKSUM_CHARS);

export interface MintedToken {
  plainText: string;
  hash: string;
  prefix: string;
}

export function mintToken(): MintedToken {
  const secret = randomToken(32);
  const plainText = `${PAT_PREFIX}${secret}${checksumOf(secret)}`;
  return { plainText, hash: hashToken(plainText), prefix: plainText.slice(0, PAT_VISIBLE_CHARS) };
}

/** True for a token that starts with the prefix; a scanner then checks it with isWellFormedToken. */
export const hasTokenPrefix = (text: string) => text.startsWith(PAT_PREFIX);

/** The shape and checksum of a personal access token (no database needed). */
export function isWellFormedToken(text: string): boolean {
  if (!SHAPE.test(text)) return false;
  const body = text.slice(PAT_PREFIX.length);
  return checksumOf(body.slice(0, SECRET_CHARS)) === body.slice(SECRET_CHARS);
}

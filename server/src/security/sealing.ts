import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Secrets the server must read back later (issue 29 §14: webhook signing secrets), sealed with AES-256-GCM under the
 * server key (SECRETS_KEY, security/secrets-key.ts). Passwords and tokens are hashed instead: those are only ever
 * compared, never used.
 *
 * A sealed value is text: `v1.<key id>.<iv>.<ciphertext>.<tag>` (the last three base64url). `v1` names the format
 * (AES-256-GCM, a 12-byte random IV, a 16-byte tag); the key id (8 hex characters of a hash of the key, which
 * says nothing about it) names the key, so a later change of key can keep the old one for opening while the new one
 * seals, and a value sealed under a key this server does not hold is told apart from a damaged one. `context` is
 * bound in as GCM's additional data (e.g. the table and the row's uuid): a sealed value copied onto another row does
 * not open there, so nobody with write access to the database can make one endpoint sign with another's secret.
 */

const FORMAT = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
export const SECRETS_KEY_BYTES = 32;

/** A sealed value that does not open: sealed under another key, damaged, or moved to another row. */
export class SealError extends Error {
  constructor(
    message: string,
    readonly reason: 'unknown-key' | 'damaged',
  ) {
    super(message);
    this.name = 'SealError';
  }
}

export interface SecretBox {
  /** The id of the key new values are sealed with. */
  readonly keyId: string;
  seal(plain: string, context: string): string;
  /** The plain text, or a SealError. */
  open(sealed: string, context: string): string;
}

/** 8 hex characters naming a key: a hash of it under a label of its own, not a part of it. */
export function keyIdOf(key: Buffer): string {
  return createHash('sha256').update('carecompliance secrets key id\0').update(key).digest('hex').slice(0, 8);
}

/**
 * A box over `keys`: the first seals, any of them opens (by the value's key id). One key today; a key rotation adds
 * the new one first and keeps the old ones until every value has been sealed again.
 */
export function secretBox(keys: readonly Buffer[]): SecretBox {
  const [current] = keys;
  if (!current) throw new Error('secretBox needs a key');
  for (const key of keys)
    if (key.length !== SECRETS_KEY_BYTES) throw new Error(`a secrets key is ${SECRETS_KEY_BYTES} bytes`);
  const byId = new Map(keys.map((key) => [keyIdOf(key), key]));
  const keyId = keyIdOf(current);
  return {
    keyId,
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', current, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(context, 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [FORMAT, keyId, iv, body, cipher.getAuthTag()]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, context) {
      const parts = sealed.split('.');
      if (parts.length !== 5 || parts[0] !== FORMAT)
        throw new SealError('The sealed value is not in a format this server knows.', 'damaged');
      const [, id, ivText, bodyText, tagText] = parts as [string, string, string, string, string];
      const key = byId.get(id);
      if (!key)
        throw new SealError(
          `The value was sealed with another secrets key (id ${id}; this server's is ${keyId}).`,
          'unknown-key',
        );
      const iv = Buffer.from(ivText, 'base64url');
      const tag = Buffer.from(tagText, 'base64url');
      if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
        throw new SealError('The sealed value is damaged.', 'damaged');
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(context, 'utf8'));
        decipher.setAuthTag(tag);
        return Buffer.concat([
          decipher.update(Buffer.from(bodyText, 'base64url')),
          decipher.final(),
        ]).toString('utf8');
      } catch {
        throw new SealError('The sealed value is damaged, or belongs to another record.', 'damaged');
      }
    },
  };
}

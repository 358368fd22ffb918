import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { StartupError } from '../db/embedded/errors';
import { SECRETS_KEY_BYTES } from './sealing';

/**
 * The server key that seals secrets (issue 29 §14; security/sealing.ts): SECRETS_KEY, 32 random bytes written as
 * base64 (`openssl rand -base64 32`) or hex (`openssl rand -hex 32`). Required in production (config.ts). On a
 * developer's machine and in the test suites without it, the key is made once and kept in DATA_DIR/secrets.key
 * (readable by its owner only): never a key in the repository, and never in the database the sealed values are in.
 */

/** SECRETS_KEY's 32 bytes, or null when the text is not 32 bytes of base64 (standard or url-safe) or hex. */
export function parseSecretsKey(text: string): Buffer | null {
  const value = text.trim();
  let key: Buffer | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) key = Buffer.from(value, 'hex');
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(value))
    key = Buffer.from(value.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  return key?.length === SECRETS_KEY_BYTES ? key : null;
}

export const LOCAL_KEY_FILE = 'secrets.key';

/**
 * DATA_DIR/secrets.key, made on first use. Two processes making it at once agree: each writes a file of its own and
 * links it into place, and the one that finds the name taken reads the winner's.
 */
export function localSecretsKey(dataDir: string): Buffer {
  const file = path.join(dataDir, LOCAL_KEY_FILE);
  const existing = readKeyFile(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  const draft = `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(draft, `${randomBytes(SECRETS_KEY_BYTES).toString('base64')}\n`, { mode: 0o600 });
  try {
    linkSync(draft, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(draft);
  }
  const made = readKeyFile(file);
  if (!made) throw new StartupError(`${file} could not be read back after it was written.`);
  return made;
}

function readKeyFile(file: string): Buffer | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
  const key = parseSecretsKey(text);
  if (!key)
    throw new StartupError(
      `${file} is not a secrets key (32 bytes, base64): put the key back, or set SECRETS_KEY (openssl rand -base64 32).`,
    );
  return key;
}

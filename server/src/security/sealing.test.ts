import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { StartupError } from '../db/embedded/errors';
import { keyIdOf, SealError, secretBox } from './sealing';
import { LOCAL_KEY_FILE, localSecretsKey, parseSecretsKey } from './secrets-key';

/** Issue 29 §14: secrets the server reads back are sealed with AES-256-GCM under SECRETS_KEY. */
describe('sealing', () => {
  const key = randomBytes(32);
  const box = secretBox([key]);

  it('opens what it sealed, in the versioned format, with a new IV each time', () => {
    const sealed = box.seal('whsec_c2VjcmV0', 'row:1');
    expect(sealed).toMatch(/^v1\.[0-9a-f]{8}\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
    expect(sealed.split('.')[1]).toBe(keyIdOf(key));
    expect(sealed).not.toContain('c2VjcmV0');
    expect(box.open(sealed, 'row:1')).toBe('whsec_c2VjcmV0');
    expect(box.seal('whsec_c2VjcmV0', 'row:1')).not.toBe(sealed);
  });

  it('refuses another context, another key, and any change to the value', () => {
    const sealed = box.seal('whsec_c2VjcmV0', 'row:1');
    const reason = (f: () => unknown) => {
      try {
        f();
      } catch (error) {
        if (error instanceof SealError) return error.reason;
        throw error;
      }
      return 'opened';
    };
    expect(reason(() => box.open(sealed, 'row:2'))).toBe('damaged');
    expect(reason(() => secretBox([randomBytes(32)]).open(sealed, 'row:1'))).toBe('unknown-key');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3] as string, 'base64url');
    body[0] = (body[0] ?? 0) ^ 1;
    parts[3] = body.toString('base64url');
    expect(reason(() => box.open(parts.join('.'), 'row:1'))).toBe('damaged');
    expect(reason(() => box.open(`v2${sealed.slice(2)}`, 'row:1'))).toBe('damaged');
    expect(reason(() => box.open('whsec_c2VjcmV0', 'row:1'))).toBe('damaged');
  });

  it('a box of several keys seals with the first and opens with any (a later change of key)', () => {
    const next = randomBytes(32);
    const both = secretBox([next, key]);
    expect(both.open(box.seal('old', 'c'), 'c')).toBe('old');
    expect(both.seal('new', 'c').split('.')[1]).toBe(keyIdOf(next));
  });
});

describe('SECRETS_KEY', () => {
  it('takes 32 bytes as base64 (standard or url-safe) or hex, and nothing else', () => {
    const key = randomBytes(32);
    expect(parseSecretsKey(key.toString('base64'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(key.toString('base64url'))?.equals(key)).toBe(true);
    expect(parseSecretsKey(` ${key.toString('hex')}\n`)?.equals(key)).toBe(true);
    expect(parseSecretsKey(randomBytes(16).toString('base64'))).toBeNull();
    expect(parseSecretsKey(randomBytes(48).toString('base64'))).toBeNull();
    expect(parseSecretsKey('correct horse battery staple correct horse!!')).toBeNull();
    expect(parseSecretsKey('')).toBeNull();
  });

  describe('without it, outside production: a key kept in DATA_DIR', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'cc-key-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('is made once, readable by its owner only, and the same on every later start', () => {
      const dataDir = path.join(dir, 'data');
      const first = localSecretsKey(dataDir);
      expect(first).toHaveLength(32);
      const file = path.join(dataDir, LOCAL_KEY_FILE);
      expect(statSync(file).mode & 0o077).toBe(0);
      expect(parseSecretsKey(readFileSync(file, 'utf8'))?.equals(first)).toBe(true);
      expect(localSecretsKey(dataDir).equals(first)).toBe(true);
    });

    it('refuses a file that is not a key, in one line, rather than make another', () => {
      const dataDir = path.join(dir, 'broken');
      localSecretsKey(dataDir);
      writeFileSync(path.join(dataDir, LOCAL_KEY_FILE), 'not a key\n');
      expect(() => localSecretsKey(dataDir)).toThrow(StartupError);
      expect(() => localSecretsKey(dataDir)).toThrow(/is not a secrets key.*SECRETS_KEY/);
    });
  });
});

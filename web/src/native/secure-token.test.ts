import { STORAGE_KEYS } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { ACTIVE_TOKEN_KEY, migrateLegacyToken, readSecure, readToken, writeToken } from './secure-token';

/** The plugin's web implementation runs here (the browser stand-in for Keychain / Keystore). */
describe('secure token (issue 19)', () => {
  it('round-trips the token through secure storage, never under localStorage "token"', async () => {
    await writeToken('abc|123');
    expect(await readToken()).toBe('abc|123');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    await writeToken(null);
    expect(await readToken()).toBeNull();
  });

  it('moves an old localStorage token into secure storage once and deletes it', async () => {
    localStorage.setItem(STORAGE_KEYS.token, 'legacy-token');
    expect(await readToken()).toBe('legacy-token');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(await readSecure(ACTIVE_TOKEN_KEY)).toBe('legacy-token');
  });

  it('keeps a newer secure token over an old localStorage one, and still deletes the old one', async () => {
    await writeToken('newer');
    localStorage.setItem(STORAGE_KEYS.token, 'older');
    await migrateLegacyToken();
    expect(await readToken()).toBe('newer');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});

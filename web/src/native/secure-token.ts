import { SecureStorage } from '@aparajita/capacitor-secure-storage';
import { STORAGE_KEYS } from '@cc/contracts';

/**
 * The bearer token of the mobile app lives in the platform's secure store (Keychain on iOS, Keystore-encrypted
 * preferences on Android; the plugin's web implementation in a browser build), never under localStorage 'token'
 * where any script of the origin could read it.
 */
export const ACTIVE_TOKEN_KEY = STORAGE_KEYS.token;

/** A string kept in secure storage (null removes it). */
export async function readSecure(key: string): Promise<string | null> {
  return SecureStorage.getItem(key);
}

export async function writeSecure(key: string, value: string | null): Promise<void> {
  if (value === null) await SecureStorage.removeItem(key);
  else await SecureStorage.setItem(key, value);
}

/**
 * Builds before issue 19 kept the token in localStorage: move it once into secure storage (unless a newer one is
 * already there) and delete the old copy either way.
 */
export async function migrateLegacyToken(): Promise<void> {
  let legacy: string | null = null;
  try {
    legacy = localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return;
  }
  if (legacy === null) return;
  if (legacy && !(await readSecure(ACTIVE_TOKEN_KEY))) await writeSecure(ACTIVE_TOKEN_KEY, legacy);
  localStorage.removeItem(STORAGE_KEYS.token);
}

/** The token of the signed-in user, after the one-off migration. */
export async function readToken(): Promise<string | null> {
  await migrateLegacyToken();
  return readSecure(ACTIVE_TOKEN_KEY);
}

export async function writeToken(token: string | null): Promise<void> {
  await writeSecure(ACTIVE_TOKEN_KEY, token);
}

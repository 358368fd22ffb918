import { STORAGE_KEYS } from '@cc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../../app/acting-as';
import { adoptToken, authStore, logout, permissionsStore, setUser } from '../../app/auth';
import { setNavigator } from '../../app/navigation';
import { queryClient } from '../../app/query-client';
import { makeUser } from '../../test/factories';
import { json } from '../../test/fake-api';
import { readSecure, readToken, writeToken } from '../secure-token';
import { hashPin, isValidPin, PIN_ATTEMPTS, pinMatches } from './pin';
import {
  afterPasswordSignIn,
  joinPromptStore,
  joinTablet,
  switchUser,
  tabletStartup,
  unlockWithBiometric,
  unlockWithPin,
} from './session';
import { loadTablet, memberKeys, setTabletEnabled, tabletStore } from './store';

const ann = makeUser({ id: 11, name: 'Ann Carer', email: 'ann@example.test' });
const ben = makeUser({
  id: 12,
  name: 'Ben Carer',
  email: 'ben@example.test',
  primary_entity: { ...ann.primary_entity, id: 99, slug: 'bens-home', name: "Ben's home" },
});
const byToken: Record<string, typeof ann> = { 'ann-token': ann, 'ben-token': ben };
let calls: { url: string; method: string; authorization?: string }[];
const navigate = vi.fn();

beforeEach(async () => {
  vi.stubEnv('VITE_FORCE_MOBILE', '1');
  setNavigator(navigate);
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const authorization = ((init?.headers ?? {}) as Record<string, string>).Authorization;
      calls.push({ url, method: init?.method ?? 'GET', authorization });
      const who = byToken[authorization?.replace('Bearer ', '') ?? ''];
      if (url.startsWith('/api/auth/user')) return who ? json(200, { data: who }) : json(401, {});
      if (url.startsWith('/api/auth/permissions')) return json(200, { data: [] });
      return new Response(null, { status: 204 });
    }),
  );
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  actingAsStore.set(null);
  joinPromptStore.set(false);
  queryClient.clear();
  await loadTablet();
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  setNavigator(null);
});

/** What a password sign-in leaves behind (auth.login): the user and their token. */
async function signedInAs(user: typeof ann, token: string): Promise<void> {
  setUser(user);
  adoptToken(token);
  await writeToken(token);
}

async function joined(user: typeof ann, token: string, pin: string): Promise<void> {
  await signedInAs(user, token);
  await afterPasswordSignIn();
  expect(joinPromptStore.get()).toBe(true);
  await joinTablet(pin);
}

describe('tablet PINs', () => {
  it('accepts 4 to 6 digits only', () => {
    expect(['1234', '123456'].map(isValidPin)).toEqual([true, true]);
    expect(['123', '1234567', '12a4', ''].map(isValidPin)).toEqual([false, false, false, false]);
  });

  it('keeps a salted PBKDF2 hash that verifies the PIN and nothing else', async () => {
    const first = await hashPin('2468');
    const second = await hashPin('2468');
    expect(first.iterations).toBeGreaterThanOrEqual(600_000);
    expect(first.salt).not.toBe(second.salt);
    expect(first.hash).not.toBe(second.hash);
    expect(JSON.stringify(first)).not.toContain('2468');
    expect(await pinMatches('2468', first)).toBe(true);
    expect(await pinMatches('2469', first)).toBe(false);
    expect(await pinMatches('24680', first)).toBe(false);
    await expect(hashPin('12')).rejects.toThrow();
  });
});

describe('shared tablet (issue 19)', () => {
  beforeEach(() => setTabletEnabled(true));

  it('switching keeps each person apart: own items, own token, caches cleared, nobody logged out', async () => {
    await joined(ann, 'ann-token', '1111');
    const annActingAs = localStorage.getItem(STORAGE_KEYS.actingAs);
    queryClient.setQueryData(['dashboard'], "Ann's figures");

    await switchUser();
    expect(navigate).toHaveBeenCalledWith('/login', undefined);
    expect(authStore.get()).toMatchObject({ user: null, token: null });
    expect(localStorage.getItem(STORAGE_KEYS.authUser)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.actingAs)).toBeNull();
    expect(await readToken()).toBeNull();
    expect(queryClient.getQueryData(['dashboard'])).toBeUndefined();
    expect(calls.some((c) => c.url.includes('/auth/logout'))).toBe(false);
    expect(await readSecure(memberKeys(ann.id).token)).toBe('ann-token');

    await joined(ben, 'ben-token', '2222');
    expect(localStorage.getItem(STORAGE_KEYS.actingAs)).toContain('bens-home');
    queryClient.setQueryData(['dashboard'], "Ben's figures");
    await switchUser();
    expect(tabletStore.get().members.map((m) => m.name)).toEqual(['Ann Carer', 'Ben Carer']);

    expect(await unlockWithPin(ann.id, '2222')).toEqual({
      ok: false,
      locked: false,
      attemptsLeft: PIN_ATTEMPTS - 1,
    });
    expect(authStore.get().user).toBeNull();
    expect(await unlockWithPin(ann.id, '1111')).toEqual({ ok: true });
    expect(authStore.get()).toMatchObject({ user: { id: ann.id }, token: 'ann-token' });
    expect(localStorage.getItem(STORAGE_KEYS.actingAs)).toBe(annActingAs);
    expect(await readToken()).toBe('ann-token');
    expect(queryClient.getQueryData(['dashboard'])).toBeUndefined();
    expect(calls.filter((c) => c.url.startsWith('/api/auth/user')).at(-1)?.authorization).toBe(
      'Bearer ann-token',
    );
  });

  it('the fifth wrong PIN removes the person from the tablet and revokes their token', async () => {
    await joined(ann, 'ann-token', '1111');
    await switchUser();
    for (let left = PIN_ATTEMPTS - 1; left > 0; left--) {
      expect(await unlockWithPin(ann.id, '9999')).toEqual({ ok: false, locked: false, attemptsLeft: left });
    }
    expect(await unlockWithPin(ann.id, '9999')).toEqual({ ok: false, locked: true });
    expect(tabletStore.get().members).toEqual([]);
    for (const key of Object.values(memberKeys(ann.id))) expect(await readSecure(key)).toBeNull();
    expect(calls.find((c) => c.url === '/api/auth/logout')).toMatchObject({
      method: 'POST',
      authorization: 'Bearer ann-token',
    });
    // The right PIN no longer helps: the password is the way back.
    expect(await unlockWithPin(ann.id, '1111')).toEqual({ ok: false, locked: true });
    expect(authStore.get().user).toBeNull();
  });

  it('a right PIN resets the count of wrong ones', async () => {
    await joined(ann, 'ann-token', '1111');
    await switchUser();
    for (let i = 0; i < PIN_ATTEMPTS - 1; i++) await unlockWithPin(ann.id, '9999');
    expect(await unlockWithPin(ann.id, '1111')).toEqual({ ok: true });
    await switchUser();
    expect(await unlockWithPin(ann.id, '9999')).toMatchObject({ attemptsLeft: PIN_ATTEMPTS - 1 });
  });

  it("the fingerprint signs a member in, a declined one doesn't", async () => {
    await joined(ann, 'ann-token', '1111');
    await switchUser();
    expect(await unlockWithBiometric(ann.id, async () => false)).toBe('declined');
    expect(authStore.get().user).toBeNull();
    expect(await unlockWithBiometric(ann.id, async () => true)).toBe('ok');
    expect(authStore.get().user?.id).toBe(ann.id);
  });

  it('a member whose session was ended elsewhere is signed out and removed, not let in', async () => {
    await joined(ann, 'ann-token', '1111');
    await switchUser();
    delete byToken['ann-token'];
    try {
      expect(await unlockWithPin(ann.id, '1111')).toEqual({ ok: false, signedOut: true });
    } finally {
      byToken['ann-token'] = ann;
    }
    expect(authStore.get()).toMatchObject({ user: null, token: null });
    expect(tabletStore.get().members).toEqual([]);
    expect(await readToken()).toBeNull();
  });

  it('start-up with the mode on goes to the list instead of prompting, keeping the member saved', async () => {
    await joined(ann, 'ann-token', '1111');
    expect(await tabletStartup(ann)).toBe(true);
    expect(authStore.get()).toMatchObject({ user: null, token: null });
    expect(await readSecure(memberKeys(ann.id).token)).toBe('ann-token');
    expect(await readSecure(memberKeys(ann.id).items)).toContain('ann@example.test');
    await setTabletEnabled(false);
    await signedInAs(ann, 'ann-token');
    expect(await tabletStartup(ann)).toBe(false);
  });

  it("a member's logout removes them from the tablet; the others stay", async () => {
    await joined(ann, 'ann-token', '1111');
    await switchUser();
    await joined(ben, 'ben-token', '2222');
    await logout({ redirect: false });
    expect(tabletStore.get().members.map((m) => m.id)).toEqual([ann.id]);
    expect(await readSecure(memberKeys(ben.id).token)).toBeNull();
    expect(await readSecure(memberKeys(ann.id).token)).toBe('ann-token');
  });

  it('a member signing in again with the password replaces their saved token and revokes the old one', async () => {
    await joined(ann, 'ann-token', '1111');
    await switchUser();
    await signedInAs(ann, 'ann-token-2');
    await afterPasswordSignIn();
    expect(joinPromptStore.get()).toBe(false);
    expect(await readSecure(memberKeys(ann.id).token)).toBe('ann-token-2');
    await vi.waitFor(() =>
      expect(calls.find((c) => c.url === '/api/auth/logout')?.authorization).toBe('Bearer ann-token'),
    );
  });
});

import { Messages, STORAGE_KEYS } from '@cc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore, permissionsStore, restoreAuth } from '../app/auth';
import { setNavigator } from '../app/navigation';
import { makeUser } from '../test/factories';
import { json } from '../test/fake-api';
import { readToken, writeToken } from './secure-token';
import { signInNoticeStore, startMobileSession, startupStore } from './startup';

type Call = { url: string; method: string; authorization?: string };
let calls: Call[];
const user = makeUser();

beforeEach(() => {
  vi.stubEnv('VITE_FORCE_MOBILE', '1');
  setNavigator(vi.fn());
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const headers = (init?.headers ?? {}) as Record<string, string>;
      calls.push({ url, method: init?.method ?? 'GET', authorization: headers.Authorization });
      if (url.startsWith('/api/auth/user')) return json(200, { data: user });
      if (url.startsWith('/api/auth/permissions')) return json(200, { data: [{ id: 1 }] });
      return new Response(null, { status: 204 });
    }),
  );
  authStore.set({ user: null, message: null, loading: false, error: null, token: null });
  permissionsStore.set(null);
  signInNoticeStore.set(null);
  startupStore.set('starting');
  window.history.replaceState(null, '', '/users?page=2');
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.unstubAllEnvs();
  setNavigator(null);
});

async function savedSession(): Promise<void> {
  localStorage.setItem(STORAGE_KEYS.authUser, JSON.stringify(user));
  await writeToken('stored-token');
  restoreAuth();
}

describe('mobile start-up (spec 1 §4, issue 19)', () => {
  it("reads the token from secure storage, asks 'Sign In', and refreshes the session with it on success", async () => {
    await savedSession();
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    await startMobileSession();
    expect(confirm).toHaveBeenCalledWith('Sign In');
    expect(authStore.get().token).toBe('stored-token');
    expect(authStore.get().user?.id).toBe(user.id);
    const me = calls.find((c) => c.url.startsWith('/api/auth/user'));
    expect(me?.authorization).toBe('Bearer stored-token');
    expect(calls.some((c) => c.url.includes('/auth/logout'))).toBe(false);
    expect(startupStore.get()).toBe('ready');
  });

  it('dispatches logout when the check is declined: token revoked and removed, login page with a reason', async () => {
    await savedSession();
    vi.stubGlobal(
      'confirm',
      vi.fn(() => false),
    );
    await startMobileSession();
    const logout = calls.find((c) => c.url === '/api/auth/logout');
    expect(logout).toMatchObject({ method: 'POST', authorization: 'Bearer stored-token' });
    expect(calls.some((c) => c.url.startsWith('/api/auth/user'))).toBe(false);
    expect(await readToken()).toBeNull();
    expect(authStore.get()).toMatchObject({ user: null, token: null });
    expect(localStorage.getItem(STORAGE_KEYS.authUser)).toBeNull();
    expect(signInNoticeStore.get()).toBe(Messages.signInAgain);
    expect(`${window.location.pathname}${window.location.search}`).toBe(
      `/login?redirect=${encodeURIComponent('/users?page=2')}`,
    );
    expect(startupStore.get()).toBe('ready');
  });

  it('does not prompt without a stored token, and forgets a user left without one', async () => {
    localStorage.setItem(STORAGE_KEYS.authUser, JSON.stringify(user));
    restoreAuth();
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    await startMobileSession();
    expect(confirm).not.toHaveBeenCalled();
    expect(authStore.get().user).toBeNull();
    expect(calls.filter((c) => c.url.includes('/auth/'))).toEqual([]);
    expect(startupStore.get()).toBe('ready');
  });

  it('migrates a token an older build left in localStorage, then asks as usual', async () => {
    localStorage.setItem(STORAGE_KEYS.authUser, JSON.stringify(user));
    localStorage.setItem(STORAGE_KEYS.token, 'legacy-token');
    restoreAuth();
    expect(authStore.get().token).toBeNull();
    vi.stubGlobal(
      'confirm',
      vi.fn(() => true),
    );
    await startMobileSession();
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
    expect(calls.find((c) => c.url.startsWith('/api/auth/user'))?.authorization).toBe('Bearer legacy-token');
  });
});

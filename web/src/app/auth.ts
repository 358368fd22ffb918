import { type AuthUser, type ErrorEnvelope, Messages, STORAGE_KEYS } from '@cc/contracts';
import { useCallback } from 'react';
import { stopPush } from '../native/push';
import { writeToken } from '../native/secure-token';
import { api, apiHooks, type Envelope, fetchCsrfCookie, isApiError } from './api';
import { deviceName, isMobile } from './env';
import { navigateTo } from './navigation';
import { readJson, readString, writeJson, writeString } from './storage';
import { createStore, useStore } from './store';

/** Auth state of spec 1 §3: user, message, loading, error, token. */
export interface AuthError {
  message: string;
  errors?: Record<string, string[]>;
}
export interface AuthState {
  user: AuthUser | null;
  message: string | null;
  loading: boolean;
  error: AuthError | null;
  token: string | null;
}

export const authStore = createStore<AuthState>({
  user: null,
  message: null,
  loading: false,
  error: null,
  token: null,
});

/** Effective permission ids from GET /auth/permissions (null until loaded: the user's own list is used). */
export const permissionsStore = createStore<number[] | null>(null);

export function useAuth(): AuthState {
  return useStore(authStore);
}

/** Logged in means a user is in state or stored locally (spec 1 §4). */
export function isLoggedIn(): boolean {
  return Boolean(authStore.get().user ?? readJson<AuthUser>(STORAGE_KEYS.authUser));
}

function patch(next: Partial<AuthState>): void {
  authStore.set((s) => ({ ...s, ...next }));
}

export function setUser(user: AuthUser | null): void {
  patch({ user });
  writeJson(STORAGE_KEYS.authUser, user);
}

/**
 * Mobile keeps the token in secure storage (web/src/native/secure-token.ts), never in localStorage; the web keeps
 * none (its session is the cookie), so only a stale key is removed there.
 */
async function setToken(token: string | null): Promise<void> {
  patch({ token });
  if (isMobile()) await writeToken(token);
  else writeString(STORAGE_KEYS.token, token);
}

/** The token read from secure storage at start-up (or a shared tablet's saved user): in state only, already stored. */
export function adoptToken(token: string | null): void {
  patch({ token });
}

function errorFrom(error: unknown): AuthError {
  if (isApiError(error) && error.data?.message) {
    return { message: error.data.message, errors: error.data.errors };
  }
  return { message: Messages.somethingWentWrong };
}

/**
 * Start-up (spec 1 §4): restore the saved user and token. On mobile the token comes later, asynchronously, from
 * secure storage (web/src/native/startup.ts).
 */
export function restoreAuth(): void {
  const user = readJson<AuthUser>(STORAGE_KEYS.authUser);
  const token = isMobile() ? null : readString(STORAGE_KEYS.token);
  patch({ user, token });
}

/** Login (spec 1 §4, §7): web = csrf cookie then POST /login; mobile = POST /api/auth/login and keep the token. */
export async function login(credentials: { email: string; password: string }): Promise<boolean> {
  patch({ loading: true, error: null, message: null });
  try {
    let user: AuthUser;
    if (isMobile()) {
      // The device token of an earlier login makes this a known device: an attacker guessing the password
      // elsewhere cannot hold it back (issue 11 §5). It outlives logout on purpose.
      const deviceToken = readString(STORAGE_KEYS.deviceToken);
      const res = await api.post<Envelope<{ token: string; device_token: string; user: AuthUser }>>(
        '/auth/login',
        { ...credentials, device_name: deviceName(), ...(deviceToken ? { device_token: deviceToken } : {}) },
        { skipAuthHandling: true, actingAs: false },
      );
      await setToken(res.data.data.token);
      writeString(STORAGE_KEYS.deviceToken, res.data.data.device_token);
      user = res.data.data.user;
    } else {
      await fetchCsrfCookie();
      const res = await api.post<Envelope<AuthUser>>('/login', credentials, {
        root: true,
        skipAuthHandling: true,
        actingAs: false,
      });
      user = res.data.data;
    }
    permissionsStore.set(null);
    setUser(user);
    patch({ loading: false, error: null });
    return true;
  } catch (error) {
    patch({ loading: false, error: errorFrom(error) });
    return false;
  }
}

/**
 * Logout (spec 1 §4): always clears the stored user data and the token, whatever the server says, and by
 * default goes to the site root. `redirect: false` stays on the current page (the guards react).
 */
export async function logout(options: { redirect?: string | false } = {}): Promise<void> {
  const hadSession = Boolean(authStore.get().user || authStore.get().token);
  if (hadSession) {
    try {
      if (isMobile()) {
        // Before the token goes: removing this phone's push registration needs it (push.ts never throws).
        await stopPush();
        await api.post('/auth/logout', {}, { skipAuthHandling: true, actingAs: false });
      } else await api.post('/logout', {}, { root: true, skipAuthHandling: true, actingAs: false });
    } catch {
      // The session may already be gone; clearing locally is what matters.
    }
  }
  const redirect = options.redirect ?? '/';
  await clearLocalSession('logout', () => {
    if (redirect) navigateTo(redirect);
  });
}

/**
 * Why the local session ends: a logout (the token is revoked), or a shared tablet's "Switch user", which keeps the
 * leaving user's token on the device for their return.
 */
export type SessionEnd = 'logout' | 'switch';

/**
 * Forgets the signed-in user on this device without asking the server (the part of logout every end shares), then
 * runs `then` (the redirect).
 */
export async function clearLocalSession(reason: SessionEnd, then?: () => void): Promise<void> {
  for (const listener of beforeEndListeners) await listener(reason);
  if (isMobile()) await writeToken(null);
  // Synchronous from here: the router must see the signed-out state and the redirect in the same turn, or a guard's
  // redirect to /login can be overtaken by ours to '/' and left there.
  patch({ token: null });
  if (!isMobile()) writeString(STORAGE_KEYS.token, null);
  setUser(null);
  permissionsStore.set(null);
  patch({ error: null, message: null, loading: false });
  for (const listener of logoutListeners) listener(reason);
  then?.();
}

const beforeEndListeners = new Set<(reason: SessionEnd) => Promise<void> | void>();
/** Runs while the leaving user is still in state (the shared tablet saves or forgets their items). */
export function beforeSessionEnd(listener: (reason: SessionEnd) => Promise<void> | void): () => void {
  beforeEndListeners.add(listener);
  return () => beforeEndListeners.delete(listener);
}

const logoutListeners = new Set<(reason: SessionEnd) => void>();
/** Other stores (acting-as, white-label, query cache) clear themselves on logout. */
export function onLogout(listener: (reason: SessionEnd) => void): () => void {
  logoutListeners.add(listener);
  return () => logoutListeners.delete(listener);
}

/** Forgot password / reset / verify (spec 1 §4): loading on, message and error cleared, then one of them set. */
async function messageCall(call: () => Promise<{ data: { message?: string } | null }>, mapError = errorFrom) {
  patch({ loading: true, message: null, error: null });
  try {
    const res = await call();
    patch({ loading: false, message: res.data?.message ?? null });
    return true;
  } catch (error) {
    patch({ loading: false, error: mapError(error) });
    return false;
  }
}

export function forgotPassword(email: string): Promise<boolean> {
  return messageCall(() =>
    api.post<{ message?: string }>('/auth/forgot-password', { email }, { actingAs: false }),
  );
}

/** Reset: a failure with a message shows the password errors joined by line breaks (spec 1 §4, §5). */
export function resetPassword(body: {
  token: string;
  email: string;
  password: string;
  password_confirmation: string;
}): Promise<boolean> {
  return messageCall(
    async () => {
      await fetchCsrfCookie();
      return api.post<{ message?: string }>('/auth/reset-password', body, { actingAs: false });
    },
    (error) => {
      const base = errorFrom(error);
      const passwordErrors = base.errors?.password;
      return passwordErrors?.length ? { ...base, message: passwordErrors.join('\n') } : base;
    },
  );
}

export async function verifyEmail(token: string): Promise<boolean> {
  const ok = await messageCall(async () => {
    await fetchCsrfCookie();
    return api.post<{ message?: string }>(
      '/auth/verify-email',
      { token },
      { actingAs: false, skipAuthHandling: true },
    );
  });
  // A signed-in user's emailVerified flips now, not at the next start-up.
  if (ok && isLoggedIn()) await reloadUser().catch(() => undefined);
  return ok;
}

/**
 * /unlock-sign-in/{token} (issue 29 §8): the link mailed while failed sign-ins elsewhere hold the account's new
 * devices back. The server makes this browser a known device of the account (its device cookie), so the next sign-in
 * here with the right password goes through; it signs nobody in.
 */
export function unlockSignIn(token: string): Promise<boolean> {
  return messageCall(async () => {
    await fetchCsrfCookie();
    return api.post<{ message?: string }>(
      '/auth/unlock-sign-in',
      { token },
      { actingAs: false, skipAuthHandling: true },
    );
  });
}

export type RegisterPlan = 'free' | 'standard' | 'enterprise';
export const REGISTER_PLANS: readonly RegisterPlan[] = ['free', 'standard', 'enterprise'];

/**
 * POST /register/{plan} (spec 1 §2, §7): a web-session call like POST /login (csrf cookie first). Nothing is created
 * and nobody is signed in until the address is confirmed from the e-mailed link (issue 11 §8: the answer is the same
 * for an address that already has an account); the server's message, which says so, is kept.
 */
export async function register(
  plan: RegisterPlan,
  body: {
    name: string;
    organisation: string;
    email: string;
    password: string;
    password_confirmation: string;
  },
): Promise<boolean> {
  patch({ loading: true, error: null, message: null });
  try {
    await fetchCsrfCookie();
    const res = await api.post<{ message?: string }>(`/register/${plan}`, body, {
      root: true,
      skipAuthHandling: true,
      actingAs: false,
    });
    patch({ loading: false, error: null, message: res.data.message ?? null });
    return true;
  } catch (error) {
    patch({ loading: false, error: errorFrom(error) });
    return false;
  }
}

/** GET /auth/user: the fresh Auth user (after a password change clears password_change_required). */
async function reloadUser(): Promise<void> {
  const res = await api.get<Envelope<AuthUser>>('/auth/user', { skipAuthHandling: true, actingAs: false });
  setUser(res.data.data);
}

/**
 * POST /auth/update-password (the /update-password page). On success the user is reloaded, so the
 * password-change guard lets them go; a failure keeps every failing rule (shown one per line, spec 1 §5).
 */
export async function updatePassword(body: {
  current_password: string;
  password: string;
  password_confirmation: string;
}): Promise<boolean> {
  const ok = await messageCall(() =>
    api.post<{ message?: string }>('/auth/update-password', body, {
      actingAs: false,
      skipAuthHandling: true,
    }),
  );
  if (ok) {
    try {
      await reloadUser();
    } catch {
      // The change is done; the next start-up check refreshes the user.
      const user = authStore.get().user;
      if (user) setUser({ ...user, password_change_required: false });
    }
  }
  return ok;
}

/**
 * POST /auth/{uuid}/verification-send for the signed-in user (spec 1 §7's path; a POST since issue 29 §13, the GET
 * only reads the state): a new verify link, the message shown.
 */
export function sendVerificationEmail(): Promise<boolean> {
  const user = authStore.get().user;
  if (!user) return Promise.resolve(false);
  return messageCall(() =>
    api.post<{ message?: string }>(`/auth/${encodeURIComponent(user.uuid)}/verification-send`, undefined, {
      actingAs: false,
      skipAuthHandling: true,
    }),
  );
}

/** The password-change rule: a signed-in user whose password must change sees only /update-password. */
export function mustChangePassword(user: Pick<AuthUser, 'password_change_required'> | null): boolean {
  return Boolean(user?.password_change_required);
}

export function clearAuthFeedback(): void {
  patch({ message: null, error: null });
}

/** GET /auth/user and GET /auth/permissions for a logged-in user at start-up (spec 1 §4). */
export async function refreshSession(): Promise<void> {
  if (!isLoggedIn()) return;
  try {
    const res = await api.get<Envelope<AuthUser>>('/auth/user', { skipAuthHandling: true, actingAs: false });
    setUser(res.data.data);
    const perms = await api.get<Envelope<{ id: number }[]>>('/auth/permissions', {
      skipAuthHandling: true,
      actingAs: false,
    });
    permissionsStore.set(perms.data.data.map((p) => p.id));
  } catch (error) {
    // The check failed: the session is gone (or the token revoked): log out, keep the page so guards can
    // send the user to /login?redirect=… (spec 1 §4 "If the check fails, logout is dispatched").
    if (isApiError(error) && (error.status === 401 || error.status === 419))
      await logout({ redirect: false });
  }
}

/** Permission check by id (spec 1 §6): all or any (default all); super_admin passes every check. */
export function hasPermission(ids: number[], mode: 'all' | 'any' = 'all'): boolean {
  const user = authStore.get().user;
  return checkPermission(user, permissionsStore.get(), ids, mode);
}

export function checkPermission(
  user: Pick<AuthUser, 'super_admin' | 'permissions'> | null,
  loaded: number[] | null,
  ids: number[],
  mode: 'all' | 'any' = 'all',
): boolean {
  if (!user) return false;
  if (user.super_admin) return true;
  const held = new Set(loaded ?? user.permissions.map((p) => p.id));
  return mode === 'any' ? ids.some((id) => held.has(id)) : ids.every((id) => held.has(id));
}

export function usePermission(ids: number[], mode: 'all' | 'any' = 'all'): boolean {
  const user = useStore(authStore, (s) => s.user);
  const loaded = useStore(permissionsStore);
  return checkPermission(user, loaded, ids, mode);
}

/** A checker for many items at once (the side navigation). */
export function usePermissionChecker(): (ids: number[], mode?: 'all' | 'any') => boolean {
  const user = useStore(authStore, (s) => s.user);
  const loaded = useStore(permissionsStore);
  return useCallback((ids, mode = 'all') => checkPermission(user, loaded, ids, mode), [user, loaded]);
}

apiHooks.getToken = () => (isMobile() ? authStore.get().token : null);
apiHooks.isLoggedIn = () => Boolean(authStore.get().user || authStore.get().token);
apiHooks.onUnauthenticated = () => {
  void logout();
};

export type { ErrorEnvelope };

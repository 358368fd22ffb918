import { type AuthUser, Messages, STORAGE_KEYS } from '@cc/contracts';
import { adoptToken, authStore, clearLocalSession, logout, refreshSession } from '../app/auth';
import { isMobile } from '../app/env';
import { fullPath, isAuthLayoutPath, loginUrlFor } from '../app/navigation';
import { readJson } from '../app/storage';
import { createStore } from '../app/store';
import { confirmSignIn } from './biometric';
import { deviceReady } from './platform';
import { readToken } from './secure-token';
import { tabletStartup } from './tablet/session';

/**
 * The mobile start-up runs before any page exists: the app shows a neutral "Signing in…" screen until the stored
 * session is confirmed or gone, so nobody sees the previous person's data behind the fingerprint prompt.
 */
export type StartupState = 'starting' | 'ready';
export const startupStore = createStore<StartupState>(isMobile() ? 'starting' : 'ready');

/** The plain-words reason the login page shows after the start-up check logged the user out. */
export const signInNoticeStore = createStore<string | null>(null);

export interface StartupDeps {
  confirm: () => Promise<boolean>;
}

/**
 * Spec 1 §4, mobile: wait for the bridge, read the token from secure storage, set it, ask for the 'Sign In'
 * fingerprint; success refreshes the session as on the web, failure or cancel dispatches logout.
 */
export async function startMobileSession(deps: StartupDeps = { confirm: confirmSignIn }): Promise<void> {
  try {
    await deviceReady();
    const token = await readToken();
    if (!token) {
      // A user saved without a token (a crash mid-logout) would pass the guards and then fail every call.
      if (authStore.get().user) await clearLocalSession('logout');
      return;
    }
    adoptToken(token);
    if (await tabletStartup(readJson<AuthUser>(STORAGE_KEYS.authUser))) return;
    if (await deps.confirm()) {
      await refreshSession();
      return;
    }
    await logout({ redirect: false });
    signInNoticeStore.set(Messages.signInAgain);
    showLoginPage();
  } finally {
    startupStore.set('ready');
  }
}

/** The router does not exist yet: the URL it starts from is set directly, keeping where the user was going. */
function showLoginPage(): void {
  const here = fullPath(window.location);
  const target =
    window.location.pathname === '/' || isAuthLayoutPath(window.location.pathname)
      ? '/login'
      : loginUrlFor(here);
  window.history.replaceState(null, '', target);
}

// The reason belongs to the sign-in it asked for: gone once someone is signed in.
authStore.subscribe(() => {
  if (authStore.get().user && signInNoticeStore.get()) signInNoticeStore.set(null);
});

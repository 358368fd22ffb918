import './acting-as';
import { startPush } from '../native/push';
import { startMobileSession, startupStore } from '../native/startup';
import { restoreActingAs } from './acting-as';
import { authStore, onLogout, refreshSession, restoreAuth } from './auth';
import { isMobile } from './env';
import { startMonitoring } from './monitoring';
import { checkVersion } from './version';
import { applyWhitelabel, loadWhitelabel, restoreWhitelabel, subdomainOf } from './whitelabel';

/** By sub-domain when there is one; a signed-in user's organisation is applied by the acting-as store. */
function loadInitialWhitelabel(): void {
  const subdomain = subdomainOf(window.location.hostname);
  if (subdomain) void loadWhitelabel({ subdomain });
}

/**
 * Start-up (spec 1 §4): restore the saved user, acting-as entity, white-label and token; check the version;
 * load the white-label (by sub-domain, else the acting-as entity); refresh the user and permissions. On mobile the
 * token comes from secure storage behind the 'Sign In' fingerprint prompt (web/src/native/startup.ts); the promise
 * settles when that is answered.
 */
export async function startApp(): Promise<void> {
  // Acting-as first: restoring the user announces a login, which must find the saved choice in place.
  restoreActingAs();
  restoreAuth();
  restoreWhitelabel();
  void checkVersion();
  loadInitialWhitelabel();
  // Error reporting and analytics, as the server configures them (off when unset): docs/error-reporting.md "Error reporting and analytics".
  void startMonitoring();
  onLogout(() => {
    applyWhitelabel(null);
    loadInitialWhitelabel();
  });
  if (isMobile()) {
    pushForWhoeverIsSignedIn();
    await startMobileSession();
  } else await refreshSession();
}

/**
 * Push notifications follow whoever is signed in on the phone: after a password login, a start-up confirmed by the
 * 'Sign In' prompt, or a shared tablet's switch; never before the prompt is answered. Logout removes the phone's
 * registration itself (auth.ts).
 */
function pushForWhoeverIsSignedIn(): void {
  let current: number | string | null = null;
  const follow = () => {
    const { user, token } = authStore.get();
    const id = user && token && startupStore.get() === 'ready' ? user.id : null;
    if (id === current) return;
    current = id;
    if (id !== null) void startPush();
  };
  authStore.subscribe(follow);
  startupStore.subscribe(follow);
}

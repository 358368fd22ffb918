import { type AuthUser, STORAGE_KEYS } from '@cc/contracts';
import { restoreActingAs } from '../../app/acting-as';
import { buildUrl } from '../../app/api';
import {
  adoptToken,
  authStore,
  beforeSessionEnd,
  clearLocalSession,
  onLogout,
  refreshSession,
  restoreAuth,
} from '../../app/auth';
import { isMobile } from '../../app/env';
import { graphqlClient } from '../../app/graphql/client';
import { navigateTo } from '../../app/navigation';
import { createStore } from '../../app/store';
import { restoreWhitelabel } from '../../app/whitelabel';
import { confirmSignIn } from '../biometric';
import { writeToken } from '../secure-token';
import { hashPin, PIN_ATTEMPTS, pinMatches } from './pin';
import {
  addMember,
  forgetMember,
  isMember,
  loadTablet,
  readFailures,
  readMemberItems,
  readMemberPin,
  readMemberToken,
  setTabletEnabled,
  tabletStore,
  writeFailures,
  writeMemberItems,
  writeMemberToken,
} from './store';

/** The locally stored items that belong to the signed-in person (spec 1 §3), saved and restored per person. */
const PERSONAL_ITEMS = [
  STORAGE_KEYS.authUser,
  STORAGE_KEYS.actingAs,
  STORAGE_KEYS.graphQLActingAs,
  STORAGE_KEYS.whitelabel,
] as const;

export function snapshotItems(): Record<string, string> {
  const items: Record<string, string> = {};
  for (const key of PERSONAL_ITEMS) {
    const value = localStorage.getItem(key);
    if (value !== null) items[key] = value;
  }
  return items;
}

function putItems(items: Record<string, string>): void {
  for (const key of PERSONAL_ITEMS) {
    const value = items[key];
    if (value === undefined) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  }
}

/** After a password sign-in on a shared tablet, the app asks the person to choose a PIN and join. */
export const joinPromptStore = createStore(false);

/** The "Switch user" end keeps the leaving person's items and token; their logout removes them from the tablet. */
beforeSessionEnd(async (reason) => {
  const { user, token } = authStore.get();
  if (!user || !isMember(user.id)) return;
  if (reason === 'logout') {
    await forgetMember(user.id);
    return;
  }
  await writeMemberItems(user.id, snapshotItems());
  if (token) await writeMemberToken(user.id, token);
});

// GraphQL keeps its own cache beside TanStack Query's (cleared in query-client.ts): nothing of one person may
// answer the next person's query.
onLogout(() => {
  void graphqlClient.clearStore();
});

/** Start-up with the mode on and a member signed in: back to the list, whoever now holds the tablet. */
export async function tabletStartup(storedUser: AuthUser | null): Promise<boolean> {
  if (!isMobile()) return false;
  const state = await loadTablet();
  if (!state.enabled || !isMember(storedUser?.id)) return false;
  await clearLocalSession('switch');
  return true;
}

/** Password sign-in done: a member's saved token is replaced (the old one revoked); anyone else is asked to join. */
export async function afterPasswordSignIn(): Promise<void> {
  const { user, token } = authStore.get();
  if (!isMobile() || !user || !token || !tabletStore.get().enabled) return;
  if (isMember(user.id)) {
    const old = await readMemberToken(user.id);
    await writeMemberToken(user.id, token);
    if (old && old !== token) void revokeToken(old);
    return;
  }
  joinPromptStore.set(true);
}

/** The signed-in person joins the tablet with the PIN they chose. */
export async function joinTablet(pin: string): Promise<void> {
  const { user, token } = authStore.get();
  if (!user || !token) throw new Error('Only a signed-in user can join the tablet');
  const record = await hashPin(pin);
  if (!tabletStore.get().enabled) await setTabletEnabled(true);
  await addMember({ id: user.id, name: user.name, email: user.email }, token, record);
  joinPromptStore.set(false);
}

/** "Switch user": back to the list, nobody logged out. */
export async function switchUser(): Promise<void> {
  await clearLocalSession('switch', () => navigateTo('/login'));
}

/** locked: five wrong PINs; signedOut: their saved session was ended elsewhere. Both mean the password again. */
export type PinOutcome =
  | { ok: true }
  | { ok: false; locked: false; attemptsLeft: number }
  | { ok: false; locked: true }
  | { ok: false; signedOut: true };

/** A member's PIN: right → signed in; wrong → counted; the fifth wrong one removes them from the tablet. */
export async function unlockWithPin(id: number, pin: string): Promise<PinOutcome> {
  const record = await readMemberPin(id);
  if (record && (await pinMatches(pin, record))) {
    await writeFailures(id, 0);
    return (await enterAs(id)) ? { ok: true } : { ok: false, signedOut: true };
  }
  const failures = (await readFailures(id)) + 1;
  if (!record || failures >= PIN_ATTEMPTS) {
    await removeFromTablet(id);
    return { ok: false, locked: true };
  }
  await writeFailures(id, failures);
  return { ok: false, locked: false, attemptsLeft: PIN_ATTEMPTS - failures };
}

/** A member's fingerprint (or the device PIN) instead of their tablet PIN. */
export async function unlockWithBiometric(
  id: number,
  confirm = confirmSignIn,
): Promise<'ok' | 'declined' | 'signedOut'> {
  if (!(await confirm())) return 'declined';
  await writeFailures(id, 0);
  return (await enterAs(id)) ? 'ok' : 'signedOut';
}

/**
 * Makes the member the signed-in user: their own saved items and token, fresh caches (cleared when the previous
 * person left), then the usual session refresh, which logs out a token revoked meanwhile.
 */
async function enterAs(id: number): Promise<boolean> {
  const token = await readMemberToken(id);
  if (!token) {
    await forgetMember(id);
    return false;
  }
  putItems((await readMemberItems(id)) ?? {});
  restoreActingAs();
  restoreAuth();
  adoptToken(token);
  await writeToken(token);
  restoreWhitelabel();
  await refreshSession();
  return Boolean(authStore.get().user);
}

/** "Remove from this tablet": the token is revoked on the server (best effort) and every record of theirs deleted. */
export async function removeFromTablet(id: number): Promise<void> {
  const token = await readMemberToken(id);
  await forgetMember(id);
  if (token) await revokeToken(token);
}

/** POST /api/auth/logout with that person's token, not the signed-in one's. */
async function revokeToken(token: string): Promise<void> {
  try {
    await fetch(buildUrl('/auth/logout', { actingAs: false }, 'POST'), {
      method: 'POST',
      headers: { Accept: 'application/json', Authorization: `Bearer ${token}` },
    });
  } catch {
    // Offline: the token stays valid on the server until it expires, but this device no longer has it.
  }
}

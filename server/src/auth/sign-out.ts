import type { CacheBus, SignOutWhich } from '../db/cache-bus';

/**
 * A sign-in ended (logout, password change or reset, an e-mail change, a session or device ended): tells every
 * server process on the cache bus, whose 'sign-out' subscriber (realtime's sockets, wired at the top in
 * cluster/process-caches.ts) closes the sockets opened with it, except those of `keep`. Auth publishes and never
 * reaches up into realtime (issue 34 §1). Call it after the session or token row is gone (after commit): a socket
 * closed before would be reopened with a credential that still works.
 */
export function announceSignOut(
  bus: CacheBus,
  which: SignOutWhich,
  keep: { sessionId?: string; tokenId?: number } = {},
): void {
  bus.publish({ topic: 'sign-out', which, keep });
}

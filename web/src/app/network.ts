import { createStore, useStore } from './store';

/**
 * Whether the app can reach its server (issue 31 §3): the browser's own word (navigator.onLine and its online /
 * offline events) and what the last API call met: a fetch that got no answer at all (a network error, not an HTTP
 * status) marks the server unreachable, any answer marks it reachable again. Pages that cannot work without the
 * server show what the device holds and say it is offline instead of raising "contact support" errors.
 */
export interface NetworkState {
  /** navigator.onLine, kept by the window's online / offline events. */
  online: boolean;
  /** The last API call got an answer (false after a network error, until an answer, an `online` event or a retry). */
  reachable: boolean;
}

export const networkStore = createStore<NetworkState>({
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  reachable: true,
});

/** The api client's report after each call: answered (any HTTP status) or not (a network error). */
export function markReachable(reachable: boolean) {
  if (networkStore.get().reachable !== reachable) networkStore.set((s) => ({ ...s, reachable }));
}

/** fetch's rejection when no answer came: a TypeError ("Failed to fetch"), not an abort. */
export function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}

// Kept from the start (this module loads with the api client), so a page mounted later reads the current state.
if (typeof window !== 'undefined') {
  window.addEventListener('online', () => networkStore.set({ online: true, reachable: true }));
  window.addEventListener('offline', () => networkStore.set((s) => ({ ...s, online: false })));
}

/** True while the browser is offline or the server gave no answer to the last call. */
export function useOffline(): boolean {
  return useStore(networkStore, (s) => !s.online || !s.reachable);
}

/** Ask the server again (the "Try again" of an offline page): the next call decides. */
export function retryNetwork() {
  networkStore.set((s) => ({
    ...s,
    online: typeof navigator === 'undefined' ? true : navigator.onLine,
    reachable: true,
  }));
}

import { createStore } from './store';

/**
 * The top progress bar (spec 1 §2: starts and stops around navigation; every long operation shows progress).
 * A counter, so overlapping navigations and requests keep the bar running until the last one ends.
 */
export const progressStore = createStore({ active: 0 });

export function startProgress(): () => void {
  progressStore.set((s) => ({ active: s.active + 1 }));
  let done = false;
  return () => {
    if (done) return;
    done = true;
    progressStore.set((s) => ({ active: Math.max(0, s.active - 1) }));
  };
}

/** Requests slower than this show the bar (fast ones would only flicker). */
export const LONG_REQUEST_MS = 250;

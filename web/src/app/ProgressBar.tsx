import { useEffect } from 'react';
import { useNavigation } from 'react-router';
import { progressStore, startProgress } from './progress';
import { useStore } from './store';

/** Runs the bar while the router is loading a route (lazy page, loader) — spec 1 §2. */
export function useNavigationProgress(): void {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle';
  useEffect(() => (busy ? startProgress() : undefined), [busy]);
}

/** The thin bar at the top of the window, in the theme's primary colour. */
export function ProgressBar() {
  const active = useStore(progressStore, (s) => s.active > 0);
  return (
    <div
      className="pointer-events-none fixed inset-x-0 top-0 z-[200] h-0.5"
      role="progressbar"
      aria-label="Loading"
      aria-hidden={!active}
      aria-busy={active}
      data-active={active ? 'true' : 'false'}
    >
      {active ? <div className="cc-progress h-full bg-primary-500" /> : null}
    </div>
  );
}

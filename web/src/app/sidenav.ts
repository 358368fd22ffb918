import { MOBILE_BREAKPOINT_PX } from '@cc/contracts';
import { useEffect } from 'react';
import { useLocation } from 'react-router';
import { createStore } from './store';

/** The side navigation: open on wide screens, a drawer below 768 px that closes after each navigation. */
export const sideNavStore = createStore<{ open: boolean }>({ open: false });

export function isNarrow(): boolean {
  return window.innerWidth < MOBILE_BREAKPOINT_PX;
}

export function useCloseSideNavOnNavigate(): void {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after every navigation
  useEffect(() => {
    if (isNarrow()) sideNavStore.set({ open: false });
  }, [location.pathname, location.search]);
}

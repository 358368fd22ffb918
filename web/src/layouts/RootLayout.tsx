import { Outlet } from 'react-router';
import { useHashScroll } from '../app/hash-scroll';
import { ProgressBar, useNavigationProgress } from '../app/ProgressBar';
import { useRouteMeta } from '../app/route-meta';
import { Toasts } from '../app/Toasts';

/** Around every layout: progress bar, page title and route pattern, hash scrolling, notifications. */
export function RootLayout() {
  useNavigationProgress();
  useRouteMeta();
  useHashScroll();
  return (
    <>
      <ProgressBar />
      <Outlet />
      <Toasts />
    </>
  );
}

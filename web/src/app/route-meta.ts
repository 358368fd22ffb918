import { PRODUCT_NAME } from '@cc/contracts';
import { useEffect } from 'react';
import { type UIMatch, useLocation, useMatches } from 'react-router';
import { createStore } from './store';

/** What each route declares in `handle` (router.tsx). */
export interface RouteHandle {
  title?: string;
}

/** Page title: the page's title followed by the product name (spec 1 §2). */
export function pageTitle(title: string | undefined): string {
  return title ? `${title} | ${PRODUCT_NAME}` : PRODUCT_NAME;
}

/**
 * The current route pattern with params replaced by a star (spec 1 §2), used to choose help articles:
 * /users/2f6c…/ → /users/*. Computed from the matched path and its params.
 */
export function routePattern(pathname: string, params: Record<string, string | undefined>): string {
  const values = new Set(Object.values(params).filter((v): v is string => Boolean(v)));
  return pathname
    .split('/')
    .map((segment) => (values.has(safeDecode(segment)) ? '*' : segment))
    .join('/');
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export const routePatternStore = createStore<string>('/');

export function useRouteMeta(): void {
  const matches = useMatches() as UIMatch<unknown, RouteHandle | undefined>[];
  const location = useLocation();
  const leaf = matches[matches.length - 1];
  const title = [...matches].reverse().find((m) => m.handle?.title)?.handle?.title;
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  useEffect(() => {
    routePatternStore.set(routePattern(location.pathname, leaf?.params ?? {}));
  }, [location.pathname, leaf]);
}

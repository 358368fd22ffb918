import {
  API_VERSION,
  type HelpArticle,
  type HelpSession,
  helpArticleMatches,
  VersionResponse,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { isMobile } from '../app/env';
import { helpArticles } from '../app/graphql/operations';

/**
 * The help widget's logic, apart from its look (issue 14; spec 1 §1, §2, §4):
 * - articles are matched against the current route PATTERN (app/route-meta.ts: params replaced by a star), never
 *   the address itself, so a user's ids and search text never reach an author's regex;
 * - an article's link is the current page's address plus its link_suffix (contracts help.ts): an anchor
 *   (`#matrix`) replaces the page's own hash, a query (`?help=x`) is added to the page's query (`&` when it has one);
 * - the session data of spec 1 §1 (app release, environment, mode, connection strength, API release).
 */

export const HELP_ARTICLES_KEY = ['help-articles'] as const;

/** GET /api/help-articles as a signed-out person (issue 38 §3): no acting-as, and a refusal never signs anyone out. */
async function publicHelpArticles(): Promise<HelpArticle[]> {
  const res = await api.get<Envelope<HelpArticle[]>>('/help-articles', {
    actingAs: false,
    skipAuthHandling: true,
  });
  return res.data.data;
}

/**
 * Articles load once per signed-in session (spec 1 §4 "loaded ... at app start") and are kept: they rarely change.
 * Signed in they come over GraphQL (spec 2 §7 "help articles": web/src/app/graphql/README.md); signed out (the
 * sign-in and error pages) over REST, which answers anonymous callers while GraphQL does not. Each has its own key
 * under HELP_ARTICLES_KEY, so invalidating that key refreshes both.
 */
export function useHelpArticles(signedIn: boolean, enabled = true) {
  return useQuery({
    queryKey: [...HELP_ARTICLES_KEY, signedIn ? 'signed-in' : 'signed-out'],
    enabled,
    staleTime: Number.POSITIVE_INFINITY,
    queryFn: signedIn ? helpArticles : publicHelpArticles,
  });
}

export function articlesForRoute(articles: readonly HelpArticle[], routePattern: string): HelpArticle[] {
  return articles.filter((a) => helpArticleMatches(a.url_regex, routePattern));
}

/** The article's place on the current page, or null without a suffix. */
export function articleLink(pageUrl: string, linkSuffix: string | null): string | null {
  if (!linkSuffix) return null;
  const url = new URL(pageUrl);
  if (linkSuffix.startsWith('#')) return `${url.origin}${url.pathname}${url.search}${linkSuffix}`;
  const extra = linkSuffix.replace(/^[?&]/, '');
  const search = url.search ? `${url.search}&${extra}` : `?${extra}`;
  return `${url.origin}${url.pathname}${search}${url.hash}`;
}

/** spec 1 §1: good when the browser reports a downlink of at least 10 Mbps; poor below; unknown when it does not say. */
export function connectionStrength(connection: { downlink?: number } | undefined): HelpSession['connection'] {
  const downlink = connection?.downlink;
  if (typeof downlink !== 'number' || Number.isNaN(downlink)) return 'unknown';
  return downlink >= 10 ? 'good' : 'poor';
}

export const appRelease = (): string => import.meta.env.VITE_APP_RELEASE ?? 'development';

async function apiRelease(): Promise<string> {
  try {
    const res = await api.get('/version', { skipAuthHandling: true, actingAs: false });
    const v = VersionResponse.parse(res.data);
    return `${v.major}.${v.minor}.${v.patch}`;
  } catch {
    return `${API_VERSION.major}.${API_VERSION.minor}.${API_VERSION.patch} (bundled)`;
  }
}

export async function sessionData(): Promise<HelpSession> {
  const nav = navigator as Navigator & { connection?: { downlink?: number } };
  return {
    app_release: appRelease(),
    environment: import.meta.env.MODE,
    mode: isMobile() ? 'mobile' : 'web',
    connection: connectionStrength(nav.connection),
    api_release: await apiRelease(),
  };
}

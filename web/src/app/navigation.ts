/**
 * Navigation outside React (the api client's 403 → /403, logout's redirect). The router registers its
 * navigate function at start-up; before that (and in tests) we fall back to a full page load.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigator: Navigate | null = null;

export function setNavigator(fn: Navigate | null): void {
  navigator = fn;
}

export function navigateTo(to: string, options?: { replace?: boolean }): void {
  if (navigator) navigator(to, options);
  else if (options?.replace) window.location.replace(to);
  else window.location.assign(to);
}

/** Pages of the authentication layout (spec 1 §2). A 401/419 there is an expected answer, not an expiry. */
const AUTH_LAYOUT = [
  /^\/login\/?$/,
  /^\/register\/[^/]+\/?$/,
  /^\/forgot-password\/?$/,
  /^\/update-password\/?$/,
  /^\/reset-password\/[^/]+\/?$/,
  /^\/verify-email\/[^/]+\/?$/,
  /^\/unlock-sign-in\/[^/]+\/?$/,
];

export function isAuthLayoutPath(pathname: string): boolean {
  return AUTH_LAYOUT.some((re) => re.test(pathname));
}

/** The full target of the current location, for /login?redirect=… (spec 1 §2). */
export function fullPath(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

export function loginUrlFor(target: string): string {
  return `/login?redirect=${encodeURIComponent(target)}`;
}

/** Only same-app paths are accepted as a post-login redirect (no open redirect to another site). */
export function safeRedirect(target: string | null | undefined): string {
  if (!target?.startsWith('/') || target.startsWith('//') || target.startsWith('/\\')) return '/';
  if (/^\/login(?:[/?#]|$)/.test(target)) return '/';
  return target;
}

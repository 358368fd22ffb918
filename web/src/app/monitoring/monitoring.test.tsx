import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  analyticsStore,
  answerConsent,
  configureAnalytics,
  readConsent,
  resetAnalytics,
  routeChanged,
  setAnalyticsUser,
} from './analytics';
import { ConsentBanner } from './ConsentBanner';
import { isIgnoredError, startErrorReporting } from './error-reporting';

const gtagScripts = () =>
  document.querySelectorAll('script[src^="https://www.googletagmanager.com/gtag/js"]');
/** The page views queued for gtag.js (dataLayer holds each call's arguments). */
const pageViews = () =>
  (window.dataLayer ?? [])
    .map((args) => Array.from(args as ArrayLike<unknown>))
    .filter((a) => a[0] === 'event' && a[1] === 'page_view')
    .map((a) => a[2] as Record<string, string>);

beforeEach(() => resetAnalytics());
afterEach(() => resetAnalytics());

describe('error reporting ignore list (spec 1 §8)', () => {
  it.each([
    "Failed to execute 'postMessage' on 'DOMWindow': The target origin provided does not match",
    'Failed to fetch dynamically imported module: https://app.example.com/assets/MatrixPage-3f2a.js',
    'error loading dynamically imported module',
    'Importing a module script failed.',
    'Non-Error promise rejection captured with value: undefined',
    'Object captured as promise rejection with keys: code, message',
    'Redirect while navigating to /login',
  ])('ignores "%s"', (message) => {
    expect(isIgnoredError(message)).toBe(true);
  });

  it.each([
    "Cannot read properties of undefined (reading 'name')",
    'Failed to fetch',
    'Network request failed',
  ])('reports "%s"', (message) => {
    expect(isIgnoredError(message)).toBe(false);
  });

  it('is off (nothing loaded) without a DSN', async () => {
    expect(await startErrorReporting(null)).toBe(false);
  });
});

describe('analytics', () => {
  const config = { measurementId: 'G-TEST123', requiresConsent: true };

  it('loads nothing and sends nothing without a measurement id', () => {
    configureAnalytics(null);
    setAnalyticsUser(7);
    routeChanged('/users/*');
    expect(gtagScripts()).toHaveLength(0);
    expect(window.gtag).toBeUndefined();
  });

  it('loads nothing before the user accepts, then sends the route pattern as the page view', () => {
    configureAnalytics(config);
    setAnalyticsUser(7);
    routeChanged('/users/*');
    expect(gtagScripts()).toHaveLength(0);
    expect(window.dataLayer).toBeUndefined();

    answerConsent('accepted');
    expect(gtagScripts()).toHaveLength(1);
    expect(pageViews()).toEqual([
      {
        page_location: `${window.location.origin}/users/*`,
        page_path: '/users/*',
        page_title: '/users/*',
        page_referrer: '',
      },
    ]);
    routeChanged('/pathways');
    expect(pageViews().map((v) => v.page_path)).toEqual(['/users/*', '/pathways']);
    expect(readConsent(7)).toBe('accepted');
  });

  it('a decline is remembered for that user on this device, and nothing is sent', () => {
    configureAnalytics(config);
    setAnalyticsUser(7);
    answerConsent('declined');
    routeChanged('/users/*');
    expect(gtagScripts()).toHaveLength(0);
    // Another user on the same device is asked for themselves.
    setAnalyticsUser(8);
    expect(analyticsStore.get().consent).toBeNull();
    setAnalyticsUser(7);
    expect(analyticsStore.get().consent).toBe('declined');
  });

  it('sends page views without asking where the organisation does not require consent', () => {
    configureAnalytics({ ...config, requiresConsent: false });
    // The page open when the settings arrive counts, then each route change.
    routeChanged('/login');
    expect(gtagScripts()).toHaveLength(1);
    expect(pageViews().map((v) => v.page_path)).toEqual(['/', '/login']);
  });

  it('the banner asks a signed-in user with Accept and Decline, from the keyboard, and goes once answered', async () => {
    configureAnalytics(config);
    setAnalyticsUser(7);
    routeChanged('/dashboard');
    render(<ConsentBanner />);
    expect(screen.getByRole('region', { name: 'Help us improve this app' })).toBeInTheDocument();
    const user = userEvent.setup();
    await user.tab();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Accept' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByRole('region', { name: 'Help us improve this app' })).toBeNull();
    expect(pageViews().map((v) => v.page_path)).toEqual(['/dashboard']);
  });

  it('the banner is not shown without analytics or when signed out', () => {
    act(() => configureAnalytics(null));
    act(() => setAnalyticsUser(7));
    const { container } = render(<ConsentBanner />);
    expect(container).toBeEmptyDOMElement();
    act(() => configureAnalytics(config));
    act(() => setAnalyticsUser(null));
    expect(container).toBeEmptyDOMElement();
    vi.restoreAllMocks();
  });
});

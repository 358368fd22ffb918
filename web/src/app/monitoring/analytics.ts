import type { ClientConfig } from '@cc/contracts';
import { createStore } from '../store';

/**
 * Page-view analytics (issue 18; spec 1 §9 "enabled with a measurement id"), GA4's gtag.js:
 * - off without a measurement id (nothing is loaded, nothing is sent);
 * - where consent is required (the default), nothing is loaded before this user accepts on this device (the banner),
 *   and a decline is remembered the same way;
 * - page views only, sent on route change with the route PATTERN (/users/*) as page and title: no names, e-mails or
 *   ids, no query strings, no referrer; Google signals and ad personalisation off.
 */

export type Consent = 'accepted' | 'declined';
export const CONSENT_KEY_PREFIX = 'analyticsConsent:';

interface AnalyticsState {
  config: ClientConfig['analytics'];
  /** The signed-in user whose consent applies (consent is per user on the device). */
  userId: number | null;
  consent: Consent | null;
  loaded: boolean;
}
export const analyticsStore = createStore<AnalyticsState>({
  config: null,
  userId: null,
  consent: null,
  loaded: false,
});

const consentKey = (userId: number) => `${CONSENT_KEY_PREFIX}${userId}`;

export function readConsent(userId: number | null): Consent | null {
  if (userId === null) return null;
  try {
    const v = localStorage.getItem(consentKey(userId));
    return v === 'accepted' || v === 'declined' ? v : null;
  } catch {
    return null;
  }
}

/** Whether page views may be sent now. */
export function analyticsAllowed(s: AnalyticsState = analyticsStore.get()): boolean {
  if (!s.config?.measurementId) return false;
  if (!s.config.requiresConsent) return true;
  return s.userId !== null && s.consent === 'accepted';
}

/** Whether the consent banner should ask this user. */
export function needsConsentAnswer(s: AnalyticsState = analyticsStore.get()): boolean {
  return Boolean(
    s.config?.measurementId && s.config.requiresConsent && s.userId !== null && s.consent === null,
  );
}

type Gtag = (...args: unknown[]) => void;
declare global {
  interface Window {
    dataLayer?: unknown[];
    gtag?: Gtag;
  }
}

export const GTAG_ORIGIN = 'https://www.googletagmanager.com';

/** gtag.js, once: the script tag and its queue. */
function loadGtag(measurementId: string): void {
  if (analyticsStore.get().loaded) return;
  window.dataLayer = window.dataLayer ?? [];
  window.gtag = function gtag() {
    // gtag.js reads the arguments object itself, as Google's snippet pushes it.
    // biome-ignore lint/complexity/noArguments: the queue format gtag.js expects
    window.dataLayer?.push(arguments);
  };
  window.gtag('js', new Date());
  window.gtag('config', measurementId, {
    send_page_view: false,
    allow_google_signals: false,
    allow_ad_personalization_signals: false,
  });
  const script = document.createElement('script');
  script.async = true;
  script.src = `${GTAG_ORIGIN}/gtag/js?id=${encodeURIComponent(measurementId)}`;
  script.dataset.analytics = 'gtag';
  document.head.appendChild(script);
  analyticsStore.set((s) => ({ ...s, loaded: true }));
}

let lastSent: string | null = null;

/** A page view for a route pattern, when allowed (loading gtag.js the first time). */
export function trackPageView(pattern: string): boolean {
  const state = analyticsStore.get();
  if (!analyticsAllowed(state) || !state.config) return false;
  if (lastSent === pattern) return false;
  loadGtag(state.config.measurementId);
  lastSent = pattern;
  window.gtag?.('event', 'page_view', {
    page_location: `${window.location.origin}${pattern}`,
    page_path: pattern,
    page_title: pattern,
    page_referrer: '',
  });
  return true;
}

let currentPattern = '/';

export function configureAnalytics(config: ClientConfig['analytics']): void {
  analyticsStore.set((s) => ({ ...s, config }));
  trackPageView(currentPattern);
}

/** The signed-in user changed (login, logout): their own answer applies from now on. */
export function setAnalyticsUser(userId: number | null): void {
  lastSent = null;
  analyticsStore.set((s) => ({ ...s, userId, consent: readConsent(userId) }));
  trackPageView(currentPattern);
}

/** The banner's answer, remembered for this user on this device. */
export function answerConsent(consent: Consent): void {
  const { userId } = analyticsStore.get();
  if (userId === null) return;
  try {
    localStorage.setItem(consentKey(userId), consent);
  } catch {
    // Private mode: the answer holds for this tab.
  }
  analyticsStore.set((s) => ({ ...s, consent }));
  trackPageView(currentPattern);
}

/** The route changed (route-meta's pattern). */
export function routeChanged(pattern: string): void {
  currentPattern = pattern;
  trackPageView(pattern);
}

/** Tests: back to the start. */
export function resetAnalytics(): void {
  lastSent = null;
  currentPattern = '/';
  analyticsStore.set({ config: null, userId: null, consent: null, loaded: false });
  for (const s of document.querySelectorAll('script[data-analytics]')) s.remove();
  window.dataLayer = undefined;
  window.gtag = undefined;
}

import {
  DEFAULT_DATE_FORMAT,
  DEFAULT_WHITELABEL,
  STORAGE_KEYS,
  setDateFormat,
  type Whitelabel,
} from '@cc/contracts';
import { api, type Envelope } from './api';
import { readJson, writeJson } from './storage';
import { createStore, useStore } from './store';
import { applyThemeVariables, themeVariables } from './theme';

/** The white-label in effect (spec 2 §3): colours, logos, favicon and labels such as entityAltName. */
export const DEFAULT_THEME: Whitelabel = {
  entity: null,
  logo: null,
  loginLogo: null,
  favicon: null,
  companyName: '',
  logoRedirectUrl: null,
  accentSecondary: null,
  successSecondary: null,
  warningSecondary: null,
  dangerSecondary: null,
  dateFormat: DEFAULT_DATE_FORMAT,
  ...DEFAULT_WHITELABEL,
};

export const whitelabelStore = createStore<Whitelabel>(DEFAULT_THEME);

export function useWhitelabel(): Whitelabel {
  return useStore(whitelabelStore);
}

/** Apply a white-label: store it, persist it (key `whitelabel`), write the CSS variables and the favicon. */
export function applyWhitelabel(input: Partial<Whitelabel> | null): Whitelabel {
  const wl: Whitelabel = { ...DEFAULT_THEME, ...stripNulls(input ?? {}) };
  // Every formatDate / formatDateTime on the page follows the organisation's format from here on.
  setDateFormat(wl.dateFormat);
  whitelabelStore.set(wl);
  writeJson(STORAGE_KEYS.whitelabel, input ? wl : null);
  applyThemeVariables(themeVariables(wl));
  setFavicon(wl.favicon);
  return wl;
}

function stripNulls(wl: Partial<Whitelabel>): Partial<Whitelabel> {
  // Keep explicit nulls for images (no logo), drop undefined so defaults stay.
  return Object.fromEntries(Object.entries(wl).filter(([, v]) => v !== undefined)) as Partial<Whitelabel>;
}

function setFavicon(href: string | null): void {
  const link = document.querySelector<HTMLLinkElement>('link#favicon') ?? document.createElement('link');
  link.id = 'favicon';
  link.rel = 'icon';
  link.href = href || '/favicon.svg';
  if (!link.parentNode) document.head.appendChild(link);
}

/** GET /api/whitelabel?slug=… (or ?subdomain=…). A failure keeps the current theme: branding is cosmetic. */
export async function loadWhitelabel(query: {
  slug?: string;
  subdomain?: string;
}): Promise<Whitelabel | null> {
  try {
    const res = await api.get<Envelope<Whitelabel>>('/whitelabel', {
      params: query,
      actingAs: false,
      skipAuthHandling: true,
    });
    const wl = res.data?.data;
    return wl ? applyWhitelabel(wl) : null;
  } catch {
    return null;
  }
}

/** The sub-domain the app is served on (acme.app.example → "acme"), or null on a bare host, localhost or an IP. */
export function subdomainOf(hostname: string): string | null {
  if (/^[\d.]+$/.test(hostname) || hostname === 'localhost' || hostname.includes(':')) return null;
  const labels = hostname.split('.');
  if (labels.length < 3 || labels[0] === 'www' || labels[0] === 'app') return null;
  return labels[0];
}

export function restoreWhitelabel(): void {
  applyWhitelabel(readJson<Whitelabel>(STORAGE_KEYS.whitelabel));
}

import { Capacitor } from '@capacitor/core';
import { API_VERSION } from '@cc/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json } from '../test/fake-api';
import { api } from './api';
import { mainAppOrigin, requestCredentials } from './env';
import { checkVersion, shouldRedirectForVersion } from './version';

/** The shell: Capacitor's bridge says native; its build sets VITE_API_ORIGIN. */
function inShell(apiOrigin = 'https://api.example.com') {
  vi.spyOn(Capacitor, 'isNativePlatform').mockReturnValue(true);
  vi.stubEnv('VITE_API_ORIGIN', apiOrigin);
}

let assigned: string[];
beforeEach(() => {
  assigned = [];
  // jsdom cannot navigate: record where the check sends the page instead.
  vi.stubGlobal('location', {
    origin: 'capacitor://localhost',
    pathname: '/my-courses',
    search: '?page=2',
    set href(url: string) {
      assigned.push(url);
    },
  });
});
afterEach(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
});

describe('version check and API origin in the shell (spec 1 §4)', () => {
  it('redirects only a page off the main origin whose bundle is a major version behind', () => {
    expect(shouldRedirectForVersion('capacitor://localhost', 'https://app.example.com', 3, 2)).toBe(true);
    expect(shouldRedirectForVersion('https://localhost', 'https://app.example.com', 3, 2)).toBe(true);
    expect(shouldRedirectForVersion('capacitor://localhost', 'https://app.example.com', 2, 2)).toBe(false);
    expect(shouldRedirectForVersion('https://app.example.com', 'https://app.example.com', 9, 2)).toBe(false);
  });

  it('the main origin is VITE_MAIN_APP_ORIGIN; in the shell else the API origin; in a browser else the page', () => {
    expect(mainAppOrigin()).toBe('capacitor://localhost');
    inShell('https://api.example.com/');
    expect(mainAppOrigin()).toBe('https://api.example.com');
    vi.stubEnv('VITE_MAIN_APP_ORIGIN', 'https://app.example.com/');
    expect(mainAppOrigin()).toBe('https://app.example.com');
  });

  it('the shell asks the API origin for /version and goes to the main app when the major is newer', async () => {
    inShell();
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) =>
      json(200, { major: API_VERSION.major + 1, minor: 0, patch: 0 }),
    );
    vi.stubGlobal('fetch', fetchMock);
    await checkVersion();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('https://api.example.com/api/version');
    expect(assigned).toEqual(['https://api.example.com/my-courses?page=2']);
  });

  it('the shell stays when the server has the same major version', async () => {
    inShell();
    vi.stubGlobal('fetch', async () => json(200, { ...API_VERSION }));
    await checkVersion();
    expect(assigned).toEqual([]);
  });

  it('the mobile app sends no cookies (bearer mode), so the API allows the shell without credentials', async () => {
    expect(requestCredentials()).toBe('include');
    inShell();
    expect(requestCredentials()).toBe('omit');
    const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => json(200, {}));
    vi.stubGlobal('fetch', fetchMock);
    await api.get('/me');
    expect(fetchMock.mock.calls[0]?.[1]?.credentials).toBe('omit');
  });
});

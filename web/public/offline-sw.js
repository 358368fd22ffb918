/*
 * Offline learning (issue 19): the mobile build's service worker keeps the app itself (same-origin GETs outside
 * /api), network first with the last copy used when offline, so the offline pages open without a connection. /api is
 * never cached: the learner's offline data is the IndexedDB queue (src/native/offline/).
 *
 * It does not serve package files: Chromium does not route a sandboxed, opaque-origin frame's requests through a
 * service worker (src/native/offline/files.ts), so packages are played offline from the native shell's files.
 */
const SHELL = 'cc-app-shell';

/**
 * The page and the bundles it loads at start were fetched before this worker controlled anything: fetch them now
 * (their hashed names are in index.html), so a reload without a network still starts the app.
 */
async function precacheShell() {
  const cache = await caches.open(SHELL);
  const page = await fetch('/', { cache: 'no-cache' });
  if (!page.ok) return;
  const html = await page.clone().text();
  await cache.put('/', page);
  const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]);
  // The product's mark too: the header shows it when the organisation's logo (the server's) cannot load offline.
  await cache.addAll([...new Set([...assets, ...(await builtAssets()), '/favicon.svg'])]);
}

/**
 * Every file of the mobile build (vite.config.ts offlineAssetList): the chunks loaded after start (the secure
 * storage that holds the token, the offline player) must be there on a restart without a network too.
 */
async function builtAssets() {
  const list = await fetch('/offline-assets.json', { cache: 'no-cache' }).catch(() => null);
  if (!list?.ok) return [];
  const files = await list.json();
  return Array.isArray(files) ? files.filter((f) => typeof f === 'string' && f.startsWith('/assets/')) : [];
}

self.addEventListener('install', (event) =>
  event.waitUntil(
    precacheShell()
      .catch(() => {
        // Offline at install: the next visit with a network fills the cache.
      })
      .then(() => self.skipWaiting()),
  ),
);
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/** Every page of the app is the same index.html: one cache entry for all navigations. */
const keyOf = (request) => (request.mode === 'navigate' ? '/' : request);

async function shell(request) {
  try {
    const response = await fetch(request);
    if (response.ok && response.type === 'basic')
      await (await caches.open(SHELL)).put(keyOf(request), response.clone());
    return response;
  } catch {
    return (await (await caches.open(SHELL)).match(keyOf(request))) ?? Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (/^\/(api|sanctum|packages|graphql|logout)(\/|$)/.test(url.pathname)) return;
  event.respondWith(shell(request));
});

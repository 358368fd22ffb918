/*
 * Offline learning (issue 19), the mobile build's service worker. Two jobs, nothing else:
 *
 * 1. Package files (/packages/...): network first, so online play is unchanged (fresh files, the server's headers);
 *    without a network, the copy the learner downloaded (Cache Storage "cc-offline-u<user id>", written by
 *    src/native/offline/files.ts under the same signed URLs). The player frame stays sandboxed (opaque origin).
 * 2. The app itself (same-origin GETs outside /api): network first, the last copy when offline, so the offline
 *    pages open without a connection. /api is never cached: the queue in IndexedDB is the offline data.
 */
const SHELL = 'cc-app-shell';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

async function fromOfflineCopy(request) {
  const keys = await caches.keys();
  for (const name of keys.filter((k) => k.startsWith('cc-offline-u'))) {
    const hit = await (await caches.open(name)).match(request.url, { ignoreSearch: true });
    if (hit) return hit;
  }
  return Response.error();
}

async function shell(request) {
  try {
    const response = await fetch(request);
    if (response.ok) {
      const cache = await caches.open(SHELL);
      await cache.put(request.mode === 'navigate' ? '/' : request, response.clone());
    }
    return response;
  } catch {
    const cache = await caches.open(SHELL);
    return (await cache.match(request.mode === 'navigate' ? '/' : request)) ?? Response.error();
  }
}

self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith('/packages/')) {
    event.respondWith(fetch(request).catch(() => fromOfflineCopy(request)));
    return;
  }
  if (url.pathname.startsWith('/api/') || url.pathname.startsWith('/sanctum/')) return;
  event.respondWith(shell(request));
});

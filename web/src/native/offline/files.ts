import { Capacitor } from '@capacitor/core';
import { Directory, Filesystem } from '@capacitor/filesystem';
import type { OfflineDownload } from '@cc/contracts';

/**
 * Where a downloaded package's files are kept, per user:
 *
 * - browser (and the mobile build in a browser): Cache Storage, one cache per user (`cc-offline-u<id>`), each file
 *   under its own signed URL. The mobile build's service worker (public/offline-sw.js) answers package requests from
 *   these caches when the network is gone, so the sandboxed frame loads the same URLs offline as online.
 * - native shell: the app's data folder through @capacitor/filesystem (offline/<user>/<package uuid>/<path>), loaded
 *   through Capacitor.convertFileSrc (the webview's own file URL, no token in it).
 *
 * Returns, for each package, its files' paths mapped to the URL the player loads them from.
 */
export interface FileSink {
  save(userId: number, uuid: string, path: string, url: string, body: Blob): Promise<string>;
  removeUser(userId: number): Promise<void>;
}

export const cacheName = (userId: number) => `cc-offline-u${userId}`;

export const cacheSink: FileSink = {
  async save(userId, _uuid, _path, url, body) {
    const cache = await caches.open(cacheName(userId));
    // The stored copy keeps the package's isolation even outside its frame: a sandbox CSP, as the server sends.
    const headers = {
      'content-type': body.type || 'application/octet-stream',
      'content-security-policy': 'sandbox allow-scripts allow-forms allow-popups',
      'x-content-type-options': 'nosniff',
    };
    await cache.put(url, new Response(body, { headers }));
    return url;
  },
  async removeUser(userId) {
    await caches.delete(cacheName(userId));
  },
};

async function base64Of(body: Blob): Promise<string> {
  const bytes = new Uint8Array(await body.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000)
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export const filesystemPath = (userId: number, uuid: string, path: string) =>
  `offline/${userId}/${uuid}/${path}`;

export const filesystemSink: FileSink = {
  async save(userId, uuid, path, _url, body) {
    const written = await Filesystem.writeFile({
      path: filesystemPath(userId, uuid, path),
      data: await base64Of(body),
      directory: Directory.Data,
      recursive: true,
    });
    return Capacitor.convertFileSrc(written.uri);
  },
  async removeUser(userId) {
    await Filesystem.rmdir({ path: `offline/${userId}`, directory: Directory.Data, recursive: true }).catch(
      () => {
        // Nothing saved for this user yet.
      },
    );
  },
};

export const defaultSink = (): FileSink => (Capacitor.isNativePlatform() ? filesystemSink : cacheSink);

export type Fetcher = (url: string) => Promise<Response>;

/**
 * Fetches every package file (and the player runtime) once, while online, and keeps it. A file that fails fails the
 * whole download (a copy missing a file would break offline, when nothing can be fetched any more).
 */
export async function savePackageFiles(
  userId: number,
  download: OfflineDownload,
  sink: FileSink,
  fetcher: Fetcher = (url) => fetch(url, { credentials: 'omit' }),
  onProgress?: (done: number, total: number) => void,
): Promise<Record<string, Record<string, string>>> {
  const jobs = [
    ...download.packages.flatMap((p) => p.files.map((f) => ({ uuid: p.uuid, path: f.path, url: f.url }))),
    ...download.runtime_files.map((url) => ({ uuid: 'runtime', path: url.replace(/^\/+/, ''), url })),
  ];
  const saved: Record<string, Record<string, string>> = {};
  let done = 0;
  for (const job of jobs) {
    const response = await fetcher(job.url);
    if (!response.ok) throw new Error(`Could not fetch ${job.path} (${response.status})`);
    const local = await sink.save(userId, job.uuid, job.path, job.url, await response.blob());
    saved[job.uuid] = { ...saved[job.uuid], [job.path]: local };
    done += 1;
    onProgress?.(done, jobs.length);
  }
  return saved;
}

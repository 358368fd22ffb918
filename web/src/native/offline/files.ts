import { Capacitor } from '@capacitor/core';
import { Directory, Encoding, Filesystem } from '@capacitor/filesystem';
import type { OfflineDownload } from '@cc/contracts';

/**
 * Where a downloaded package's files are kept: on the native shell only, in the app's data folder through
 * @capacitor/filesystem (offline/<user>/<package uuid>/<path>), loaded through Capacitor.convertFileSrc: the shell's
 * own file URL, answered by the native web view's request handler for every frame, the sandboxed package frame and
 * its sub-resources included. No token is in those URLs.
 *
 * Not in a plain browser. Checked in Chromium 156: a service worker does not see the requests of a frame sandboxed
 * without allow-same-origin (the SCO's page and its scripts and images went to the network and failed offline),
 * and giving the frame allow-same-origin would run package code with the app's origin. So the browser build takes
 * lessons, topics and quizzes offline, and packages (SCORM, H5P) need the shell or a connection.
 */
export interface FileSink {
  save(userId: number, uuid: string, path: string, url: string, body: Blob): Promise<string>;
  /** One package's stored files (or the shared player runtime's, uuid 'runtime'). */
  removePackage(userId: number, uuid: string): Promise<void>;
  removeUser(userId: number): Promise<void>;
}

/** The folder holding one user's copies of the players (SCORM bridge, H5P player), shared by their packages. */
export const RUNTIME_FOLDER = 'runtime';

async function removeFolder(path: string) {
  await Filesystem.rmdir({ path, directory: Directory.Data, recursive: true }).catch(() => {
    // Nothing saved there (never written, or removed already): nothing to do.
  });
}

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
  removePackage: (userId, uuid) => removeFolder(`offline/${userId}/${uuid}`),
  removeUser: (userId) => removeFolder(`offline/${userId}`),
};

/**
 * A stored package file's text, read by the app: the device's file server answers a package's opaque-origin frame
 * without CORS headers, so what the frame would fetch() (H5P's JSON) is read here and handed to it.
 */
export async function readStoredText(userId: number, uuid: string, path: string): Promise<string> {
  const file = await Filesystem.readFile({
    path: filesystemPath(userId, uuid, path),
    directory: Directory.Data,
    encoding: Encoding.UTF8,
  });
  return typeof file.data === 'string' ? file.data : file.data.text();
}

/** The sink package files go to, or null where packages cannot be played offline (a browser, see above). */
export const defaultSink = (): FileSink | null => (Capacitor.isNativePlatform() ? filesystemSink : null);

/** Packages the device can play offline: all of them in the shell, none in a browser. */
export const packagesPlayOffline = () => Capacitor.isNativePlatform();

const BRIDGE_SRC = '/packages/runtime/scorm-frame.js';

/**
 * The server puts the SCORM bridge into each SCO page as <script src="/packages/runtime/scorm-frame.js"> (its own
 * tag, packages/routes.ts SCORM_BRIDGE_TAG). Stored on the device, that root path would point into the app bundle, so
 * our tag (and only it: the package's own markup is left alone) is pointed at the stored copy of the bridge.
 */
export function localizeBridge(html: string, bridgeUrl: string): string {
  return html.replace(`<script src="${BRIDGE_SRC}"></script>`, `<script src="${bridgeUrl}"></script>`);
}

export type Fetcher = (url: string) => Promise<Response>;

/**
 * Fetches every package file (and the player runtime) once, while online, and keeps it. A file that fails fails the
 * whole download (a copy missing a file would break offline, when nothing can be fetched any more).
 */
export async function savePackageFiles(
  userId: number,
  download: OfflineDownload,
  sink: FileSink | null,
  fetcher: Fetcher = (url) => fetch(url, { credentials: 'omit' }),
  onProgress?: (done: number, total: number) => void,
): Promise<Record<string, Record<string, string>>> {
  if (!sink) return {};
  // The runtime first: SCO pages are rewritten to point at the stored bridge.
  const jobs = [
    ...download.runtime_files.map((url) => ({ uuid: RUNTIME_FOLDER, path: url.replace(/^\/+/, ''), url })),
    ...download.packages.flatMap((p) => p.files.map((f) => ({ uuid: p.uuid, path: f.path, url: f.url }))),
  ];
  const saved: Record<string, Record<string, string>> = {};
  let done = 0;
  for (const job of jobs) {
    const response = await fetcher(job.url);
    if (!response.ok) throw new Error(`Could not fetch ${job.path} (${response.status})`);
    let body = await response.blob();
    const bridge = saved[RUNTIME_FOLDER]?.[BRIDGE_SRC.slice(1)];
    if (bridge && /\.html?$/i.test(job.path))
      body = new Blob([localizeBridge(await body.text(), bridge)], { type: body.type || 'text/html' });
    const local = await sink.save(userId, job.uuid, job.path, job.url, body);
    saved[job.uuid] = { ...saved[job.uuid], [job.path]: local };
    done += 1;
    onProgress?.(done, jobs.length);
  }
  return saved;
}

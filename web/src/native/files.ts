import { Directory, Filesystem } from '@capacitor/filesystem';
import { FileOpener } from '@capacitor-community/file-opener';
import { Messages } from '@cc/contracts';
import { type ApiResponse, isApiError } from '../app/api';
import { isMobile, isNativeShell } from '../app/env';
import { notifyError } from '../app/notifications';

/**
 * Every file the app hands to the user (certificates, report exports, care certificates, task results, documents,
 * calendar files) goes through downloadFile. In a browser it is the browser's download, as it always was. In the
 * Capacitor shell a webview has no download manager, so the file is written with @capacitor/filesystem and opened
 * with the device's viewer (@capacitor-community/file-opener). In the mobile app any failure is the one alert of
 * spec 2 §8, 'Unable to download'.
 */

/** The two plugin calls a native save makes: a seam so tests can fail either one. */
export interface NativeFilePlugins {
  writeFile(options: {
    path: string;
    data: string;
    directory: Directory;
    recursive: boolean;
  }): Promise<{ uri: string }>;
  open(options: { filePath: string; contentType?: string }): Promise<void>;
}

const capacitorPlugins: NativeFilePlugins = {
  writeFile: (options) => Filesystem.writeFile(options),
  open: (options) => FileOpener.open(options),
};

/** The file name from a Content-Disposition header (`attachment; filename="x.pdf"`, RFC 5987 too), else fallback. */
export function fileNameFrom(disposition: string | null, fallback: string): string {
  if (!disposition) return fallback;
  const star = /filename\*=(?:UTF-8'')?([^;]+)/i.exec(disposition);
  if (star?.[1]) {
    try {
      return decodeURIComponent(star[1].trim().replace(/^"|"$/g, '')) || fallback;
    } catch {
      // A malformed escape: the plain filename (or the fallback) still names the file.
    }
  }
  const plain = /filename="?([^";]+)"?/i.exec(disposition);
  return plain?.[1]?.trim() || fallback;
}

/**
 * A name safe on both devices' file systems: the server's or the user's text can hold slashes, control characters
 * or characters the iOS and Android file pickers refuse; a leading dot would hide the file.
 */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFC')
    .replace(/[^\p{L}\p{N} ._()-]+/gu, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[\s.-]+|[\s.-]+$/g, '');
  if (!cleaned) return 'download';
  if (cleaned.length <= 120) return cleaned;
  // Too long for some file systems: keep the extension, which decides the app that opens it.
  const dot = cleaned.lastIndexOf('.');
  const ext = dot > 0 && cleaned.length - dot <= 10 ? cleaned.slice(dot) : '';
  return cleaned.slice(0, 120 - ext.length) + ext;
}

/**
 * Where a download is written: a folder of its own under downloads/, so two files of the same name (the same report
 * twice) never overwrite each other while the viewer still shows the file's real name.
 */
export function nativeFilePath(name: string, now: number = Date.now(), random: () => number = Math.random) {
  const unique = `${now.toString(36)}${Math.floor(random() * 36 ** 6)
    .toString(36)
    .padStart(6, '0')}`;
  return `downloads/${unique}/${safeFileName(name)}`;
}

/** A blob as base64 (what Filesystem.writeFile takes for binary data), without the data: URL prefix. */
export function blobToBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result ?? '');
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsDataURL(blob);
  });
}

/**
 * Writes the file into the app's cache (no storage permission on either platform, and the system may reclaim it
 * once read) and opens it with the device's viewer for that type, from which the user can keep or share it.
 */
export async function saveNatively(
  blob: Blob,
  name: string,
  plugins: NativeFilePlugins = capacitorPlugins,
): Promise<void> {
  const data = await blobToBase64(blob);
  const { uri } = await plugins.writeFile({
    path: nativeFilePath(name),
    data,
    directory: Directory.Cache,
    recursive: true,
  });
  await plugins.open({ filePath: uri, contentType: blob.type || undefined });
}

/** The browser's download: a temporary link to the blob, clicked. */
export function saveInBrowser(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves a file the way the platform can: natively in the shell, else the browser's download. */
export async function saveFile(blob: Blob, name: string): Promise<void> {
  if (isNativeShell()) await saveNatively(blob, name);
  else saveInBrowser(blob, name);
}

/** Spec 2 §8 "native file save fails": the mobile app's one download failure, as the device's own alert. */
export function alertDownloadFailed(): void {
  window.alert(Messages.unableToDownload);
}

export interface DownloadOptions {
  /** The name when the answer has no Content-Disposition file name. */
  fallbackName: string;
  /** The browser's failure notice (spec 2 §8), unless the server sent a message. */
  failure: string;
  /** A 204 or a non-file answer: an empty result (spec 2 §4). */
  onEmpty?: () => void;
  /** A name of the caller's own instead of the server's. */
  name?: string;
  /** The browser's failure notice of the caller's own (default: notifyError with `failure`). */
  onError?: (error: unknown) => void;
}

/**
 * Runs a file call and saves its answer. Returns whether a file was saved. A 403 says nothing here: the api client
 * has already gone to /403. Other failures: in the mobile app the 'Unable to download' alert, in the browser the
 * server's message or `failure`.
 */
export async function downloadFile(
  call: () => Promise<ApiResponse<Blob>>,
  options: DownloadOptions,
): Promise<boolean> {
  try {
    const res = await call();
    if (res.status === 204 || !isBlob(res.data)) {
      options.onEmpty?.();
      return false;
    }
    const name = options.name ?? fileNameFrom(res.headers.get('content-disposition'), options.fallbackName);
    await saveFile(res.data, name);
    return true;
  } catch (error) {
    if (isApiError(error) && error.status === 403) return false;
    if (isMobile()) alertDownloadFailed();
    // A JSON error body arrives parsed; a blob body carries no message.
    else if (options.onError) options.onError(error);
    else notifyError(isApiError(error) ? error.data : null, options.failure);
    return false;
  }
}

// Duck-typed: a Blob of another realm (a test's, a frame's) fails instanceof.
const isBlob = (value: unknown): value is Blob =>
  value instanceof Blob ||
  (typeof (value as Partial<Blob> | null)?.arrayBuffer === 'function' &&
    typeof (value as Partial<Blob>).size === 'number');

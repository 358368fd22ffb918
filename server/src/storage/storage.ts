import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { lstat, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A store the server cannot start with: main.ts prints the message alone (one line, never a secret). */
export class StorageError extends Error {
  override name = 'StorageError';
}

/**
 * One storage interface for uploaded files (ARCHITECTURE "Data"; issue 12 §4): local disk by default (createDiskStorage
 * below), an S3-compatible store when S3_BUCKET is set (s3.ts), which every server process shares. Keys are relative paths with '/' between folders (`evidence/<uuid>.pdf`, `packages/<uuid>/sco/a.html`).
 *
 * Small files (images, evidence: a few MB at most, checked by their routes) go through put/get as buffers. Packages
 * go through write/read as streams: a package is never held in memory whole.
 */
export interface Storage {
  readonly kind: 'disk' | 's3';
  /** Stores a small file under a new key `<prefix>/<uuid>.<extension>` and returns the key. */
  put(prefix: string, bytes: Buffer, extension: string): Promise<string>;
  /** A small file whole, or null when there is none. */
  get(key: string): Promise<Buffer | null>;
  remove(key: string): Promise<void>;
  /** Streams `body` into `key` (replacing what was there); returns the bytes written. */
  write(key: string, body: Readable, contentType?: string): Promise<number>;
  /** The file as a stream (bytes start..end inclusive when a range is given), or null when there is none. */
  read(key: string, range?: ByteRange): Promise<StoredFile | null>;
  /** The file's size, or null when there is none. */
  head(key: string): Promise<{ size: number } | null>;
  /** Every key under the folder `prefix` (which ends with '/'), sorted. */
  list(prefix: string): Promise<string[]>;
  /** Removes every file under the folder `prefix` (which ends with '/'). */
  removeAll(prefix: string): Promise<void>;
}

export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredFile {
  body: Readable;
  /** Bytes in `body` (the range's length when a range was asked for). */
  size: number;
}

const GENERATED_KEY = /^[a-z0-9-]+\/[0-9a-f-]{36}\.[a-z0-9]{1,5}$/;

/**
 * Refuses a key that is not a plain relative path (no empty, '.' or '..' segments, no backslash or control
 * characters, at most 1024 characters), so no caller can reach outside the store's root or prefix.
 */
export function checkKey(key: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  const bad = !key || key.length > 1024 || /[\u0000-\u001f\\]/.test(key);
  if (bad || key.split('/').some((s) => s === '' || s === '.' || s === '..'))
    throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
  return key;
}

/** A folder prefix: a checked key followed by '/'. */
export function checkPrefix(prefix: string): string {
  if (!prefix.endsWith('/')) throw new Error(`Unsafe storage prefix: ${JSON.stringify(prefix)}`);
  checkKey(prefix.slice(0, -1));
  return prefix;
}

/** A new key for put(): the prefix and extension are the caller's constants, checked all the same. */
export function newKey(prefix: string, extension: string): string {
  const key = `${prefix}/${randomUUID()}.${extension}`;
  if (!GENERATED_KEY.test(key)) throw new Error(`Unsafe storage key: ${key}`);
  return key;
}

/** Counts the bytes passing through (what write() returns). */
export function byteCounter() {
  const counter = new Transform({
    transform(chunk: Buffer, _enc, next) {
      counter.bytes += chunk.length;
      next(null, chunk);
    },
  }) as Transform & { bytes: number };
  counter.bytes = 0;
  return counter;
}

/** Local disk under `root` (DATA_DIR/files): the default, and what every file uploaded before issue 12 uses. */
export function createDiskStorage(root: string): Storage {
  const resolve = (key: string) => path.join(root, checkKey(key));
  const isFile = async (file: string) => {
    // A regular file only: never a folder, never a link.
    const stat = await lstat(file).catch(() => null);
    return stat?.isFile() ? stat : null;
  };
  async function walk(dir: string, prefix: string, out: string[]) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (entry.isDirectory()) await walk(path.join(dir, entry.name), `${prefix}${entry.name}/`, out);
      else if (entry.isFile()) out.push(prefix + entry.name);
    }
    return out;
  }
  return {
    kind: 'disk',
    async put(prefix, bytes, extension) {
      const key = newKey(prefix, extension);
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
      return key;
    },
    async get(key) {
      const file = resolve(key);
      if (!(await isFile(file))) return null;
      return readFile(file).catch(() => null);
    },
    async remove(key) {
      await rm(resolve(key), { force: true });
    },
    async write(key, body) {
      const file = resolve(key);
      await mkdir(path.dirname(file), { recursive: true });
      const counter = byteCounter();
      await pipeline(body, counter, createWriteStream(file));
      return counter.bytes;
    },
    async read(key, range) {
      const file = resolve(key);
      const stat = await isFile(file);
      if (!stat) return null;
      if (!range) return { body: createReadStream(file), size: stat.size };
      return {
        body: createReadStream(file, { start: range.start, end: range.end }),
        size: range.end - range.start + 1,
      };
    },
    async head(key) {
      const stat = await isFile(resolve(key));
      return stat ? { size: stat.size } : null;
    },
    async list(prefix) {
      const keys = await walk(path.join(root, checkPrefix(prefix)), prefix, []);
      return keys.sort();
    },
    async removeAll(prefix) {
      await rm(path.join(root, checkPrefix(prefix)), { recursive: true, force: true });
    },
  };
}

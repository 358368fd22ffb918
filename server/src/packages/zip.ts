import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl, { type Entry, type ZipFile } from 'yauzl';
import { invalidField } from '../http/errors';
import type { Storage } from '../storage/storage';
import { type PackageLimits, RATIO_CHECK_FROM_BYTES } from './limits';

/**
 * Safe zip extraction (issue 4 item 5) with yauzl (streaming, reads the central directory, checks each entry's real
 * size against the declared one). Every entry is checked BEFORE anything is written:
 * - names: no absolute paths, drive letters, backslashes, `..` segments or control characters (zip-slip);
 * - no symbolic links, no encrypted entries;
 * - entry count, total uncompressed size and the per-entry compression ratio (zip bombs).
 * Then each file is streamed, entry by entry, into the store under `prefix` (issue 12 §4: local disk or S3; the
 * package is never held in memory whole), each name checked again and written once.
 * Problems answer 422 on the field `package` with a message that says what was wrong.
 */
export const FIELD = 'package';
/** Entries below this size are written PARALLEL_WRITES at a time. */
const SMALL_ENTRY_BYTES = 1024 * 1024;
const PARALLEL_WRITES = 8;
const MAX_NAME_BYTES = 768;
const refuse = (message: string) => invalidField(FIELD, message);

export interface ExtractedPackage {
  files: Set<string>;
  uncompressedBytes: number;
}

function openZip(file: string): Promise<ZipFile> {
  return new Promise((resolve, reject) =>
    yauzl.open(
      file,
      { lazyEntries: true, autoClose: false, strictFileNames: true, validateEntrySizes: true },
      (err, zip) => (err || !zip ? reject(err ?? new Error('no zip')) : resolve(zip)),
    ),
  );
}

/** yauzl refuses unsafe names itself (with decodeStrings); its message names the path. */
function fromYauzl(error: unknown) {
  const message = error instanceof Error ? error.message : String(error);
  const unsafe = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(message);
  if (unsafe) return refuse(`The package contains an unsafe path: ${unsafe[2]}`);
  return refuse('The package is not a valid zip file.');
}

/** On disk, a file and a folder of one name collide (an object store keeps both): the package's fault, 422. */
function conflictOr(error: unknown, name: string) {
  const code = (error as { code?: string }).code;
  if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST')
    return refuse(`The package contains a file and a folder of the same name: ${name}`);
  return error;
}

function readEntries(zip: ZipFile): Promise<Entry[]> {
  return new Promise((resolve, reject) => {
    const entries: Entry[] = [];
    zip.on('entry', (entry: Entry) => {
      entries.push(entry);
      zip.readEntry();
    });
    zip.on('end', () => resolve(entries));
    zip.on('error', reject);
    zip.readEntry();
  });
}

/** The checked, normalised relative path of an entry ('' for the root folder), or a 422. */
export function safeEntryName(raw: string): string {
  const bad = () => refuse(`The package contains an unsafe path: ${raw}`);
  if (!raw || raw.length > 1024) throw bad();
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
  if (/[\u0000-\u001f\\]/.test(raw) || raw.startsWith('/') || /^[a-zA-Z]:/.test(raw)) throw bad();
  const segments = raw.split('/');
  if (segments.some((s) => s === '..' || s === '.')) throw bad();
  return segments.filter(Boolean).join('/');
}

const isSymlink = (entry: Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
const isDirectory = (entry: Entry) => entry.fileName.endsWith('/');

function checkEntries(entries: Entry[], limits: PackageLimits) {
  if (entries.length > limits.maxEntries)
    throw refuse(`The package may not contain more than ${limits.maxEntries} files.`);
  let total = 0;
  for (const entry of entries) {
    // An object store's keys hold 1,024 bytes, with the bucket's prefix and packages/<uuid>/ before the name.
    if (Buffer.byteLength(safeEntryName(entry.fileName)) > MAX_NAME_BYTES)
      throw refuse(
        `The package contains a path longer than ${MAX_NAME_BYTES} bytes: ${entry.fileName.slice(0, 80)}…`,
      );
    if (isSymlink(entry)) throw refuse(`The package may not contain links: ${entry.fileName}`);
    if (entry.generalPurposeBitFlag & 0x1) throw refuse('The package may not contain encrypted files.');
    total += entry.uncompressedSize;
    const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
    if (entry.uncompressedSize >= RATIO_CHECK_FROM_BYTES && ratio > limits.maxRatio)
      throw refuse(
        `The package looks like a zip bomb: ${entry.fileName} expands ${Math.round(ratio)} times.`,
      );
  }
  if (total > limits.maxUncompressedBytes)
    throw refuse(
      `The package may not be greater than ${Math.floor(limits.maxUncompressedBytes / 1024 / 1024)} megabytes once extracted.`,
    );
}

function openEntry(zip: ZipFile, entry: Entry): Promise<NodeJS.ReadableStream> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => (err || !stream ? reject(err) : resolve(stream))),
  );
}

/**
 * Extracts `zipFile` (a local file: a zip is read from its end, so it is received to disk first) into `storage`
 * under `prefix` (a fresh folder such as `packages/<uuid>/`). On failure the caller removes the prefix.
 */
export async function extractZip(
  zipFile: string,
  storage: Storage,
  prefix: string,
  limits: PackageLimits,
): Promise<ExtractedPackage> {
  let zip: ZipFile;
  try {
    zip = await openZip(zipFile);
  } catch (error) {
    throw fromYauzl(error);
  }
  try {
    let entries: Entry[];
    try {
      entries = await readEntries(zip);
    } catch (error) {
      throw fromYauzl(error);
    }
    checkEntries(entries, limits);
    const files = new Set<string>();
    let written = 0;
    const writeEntry = async (entry: Entry, name: string) => {
      const counter = new Transform({
        transform(chunk: Buffer, _enc, next) {
          written += chunk.length;
          if (written > limits.maxUncompressedBytes) next(refuse('The package is too large once extracted.'));
          else next(null, chunk);
        },
      });
      const source = (await openEntry(zip, entry).catch((error) => {
        throw fromYauzl(error);
      })) as Readable;
      // A store that fails before reading everything must not leave the entry's stream waiting for a reader.
      const writing = storage.write(prefix + name, counter).catch((error: unknown) => {
        counter.destroy();
        throw error;
      });
      const [read, wrote] = await Promise.allSettled([pipeline(source, counter), writing]);
      if (read.status === 'rejected' && read.reason instanceof Error && 'status' in read.reason)
        throw read.reason;
      if (wrote.status === 'rejected') throw conflictOr(wrote.reason, name);
      if (read.status === 'rejected') throw fromYauzl(read.reason);
    };
    // Small files go up several at a time (each is one request to an object store, whose round trip then dominates:
    // a package of 10,000 files at 30 ms each would take 5 minutes one by one); a big one goes alone, so at most a
    // few upload parts are in memory at once.
    const running = new Set<Promise<void>>();
    const failures: unknown[] = [];
    const settle = async () => {
      await Promise.all(running);
      if (failures.length) throw failures.find((e) => e instanceof Error && 'status' in e) ?? failures[0];
    };
    for (const entry of entries) {
      const name = safeEntryName(entry.fileName);
      // Folders are implied by their files' keys (an object store has none).
      if (!name || isDirectory(entry)) continue;
      if (files.has(name)) {
        await settle();
        throw refuse(`The package contains the same file twice: ${name}`);
      }
      files.add(name);
      if (entry.uncompressedSize >= SMALL_ENTRY_BYTES) {
        await settle();
        await writeEntry(entry, name);
        continue;
      }
      if (failures.length) break;
      if (running.size >= PARALLEL_WRITES) await Promise.race(running);
      const task: Promise<void> = writeEntry(entry, name)
        .catch((error: unknown) => {
          failures.push(error);
        })
        .finally(() => running.delete(task));
      running.add(task);
    }
    await settle();
    return { files, uncompressedBytes: written };
  } finally {
    zip.close();
  }
}

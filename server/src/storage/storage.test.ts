import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3-server';
import { loadConfig } from '../config';
import { checkBucket, createS3Storage } from './s3';
import { createDiskStorage, type Storage, StorageError, type StoredFile } from './storage';

/**
 * The storage contract (issue 12 §4): the same cases against local disk and against S3 (a real S3-protocol server,
 * test/s3-server.ts). Whatever a service does with ctx.storage behaves the same on both.
 */
let s3: TestS3;
let diskRoot: string;
beforeAll(async () => {
  s3 = await startS3();
  diskRoot = mkdtempSync(path.join(tmpdir(), 'cc-disk-'));
});
afterAll(async () => {
  await s3?.close();
  rmSync(diskRoot, { recursive: true, force: true });
});

async function bytesOf(file: StoredFile | null): Promise<Buffer> {
  if (!file) throw new Error('no such file');
  const chunks: Buffer[] = [];
  for await (const chunk of file.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
const text = async (file: StoredFile | null) => (await bytesOf(file)).toString('utf8');

/** A stream of `bytes` bytes made on the fly in 64 KB chunks (the test never holds it whole either). */
function generated(bytes: number): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= bytes) return this.push(null);
      const n = Math.min(64 * 1024, bytes - sent);
      this.push(Buffer.alloc(n, sent % 251));
      sent += n;
    },
  });
}

describe.each([
  ['local disk', () => createDiskStorage(diskRoot)],
  ['S3', () => createS3Storage(s3.settings)],
] as const)('storage contract: %s', (_name, make) => {
  let storage: Storage;
  beforeAll(() => {
    storage = make();
  });

  it('puts a small file under a new key, gets it back, removes it; a missing key is null', async () => {
    const key = await storage.put('evidence', Buffer.from('%PDF-1.4 hello'), 'pdf');
    expect(key).toMatch(/^evidence\/[0-9a-f-]{36}\.pdf$/);
    expect((await storage.get(key))?.toString()).toBe('%PDF-1.4 hello');
    expect(await storage.head(key)).toEqual({ size: 14 });
    await storage.remove(key);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.head(key)).toBeNull();
    expect(await storage.read(key)).toBeNull();
    await storage.remove(key); // removing what is gone is no error
  });

  it('streams a file in and out, whole and by byte range', async () => {
    const key = 'packages/11111111-1111-4111-8111-111111111111/sco/page.html';
    expect(await storage.write(key, Readable.from([Buffer.from('<p>'), Buffer.from('hello</p>')]))).toBe(12);
    const whole = await storage.read(key);
    expect(whole?.size).toBe(12);
    expect(await text(whole)).toBe('<p>hello</p>');
    const part = await storage.read(key, { start: 3, end: 7 });
    expect(part?.size).toBe(5);
    expect(await text(part)).toBe('hello');
    // An empty file is a file (packages hold them).
    const empty = 'packages/11111111-1111-4111-8111-111111111111/empty.js';
    expect(await storage.write(empty, Readable.from([]))).toBe(0);
    expect(await storage.head(empty)).toEqual({ size: 0 });
    expect(await text(await storage.read(empty))).toBe('');
    // Writing again replaces.
    await storage.write(key, Readable.from([Buffer.from('new')]));
    expect((await storage.get(key))?.toString()).toBe('new');
  });

  it('streams a file bigger than one upload part (12 MB) and reads it back intact', async () => {
    const key = 'packages/22222222-2222-4222-8222-222222222222/video.mp4';
    const size = 12 * 1024 * 1024 + 3;
    expect(await storage.write(key, generated(size))).toBe(size);
    expect(await storage.head(key)).toEqual({ size });
    const tail = await storage.read(key, { start: size - 3, end: size - 1 });
    const expected = Buffer.alloc(3, (size - 3 - ((size - 3) % (64 * 1024))) % 251);
    expect(await bytesOf(tail)).toEqual(expected);
    await storage.removeAll('packages/22222222-2222-4222-8222-222222222222/');
  });

  it('lists a folder and removes it whole, leaving its neighbours', async () => {
    const a = 'packages/33333333-3333-4333-8333-333333333333/';
    const b = 'packages/33333333-3333-4333-8333-333333333334/';
    for (const name of ['index.html', 'css/site.css', 'js/deep/app.js'])
      await storage.write(a + name, Readable.from([Buffer.from(name)]));
    await storage.write(`${b}index.html`, Readable.from([Buffer.from('b')]));
    expect(await storage.list(a)).toEqual([`${a}css/site.css`, `${a}index.html`, `${a}js/deep/app.js`]);
    await storage.removeAll(a);
    expect(await storage.list(a)).toEqual([]);
    expect(await storage.list(b)).toEqual([`${b}index.html`]);
    expect(await storage.list('packages/nothing-here/')).toEqual([]);
    await storage.removeAll('packages/nothing-here/');
  });

  it('lists and removes more than one page of keys (over 1,000)', async () => {
    const prefix = 'packages/44444444-4444-4444-8444-444444444444/';
    const names = Array.from({ length: 1005 }, (_, i) => `${prefix}f${String(i).padStart(4, '0')}.js`);
    for (let i = 0; i < names.length; i += 50)
      await Promise.all(
        names.slice(i, i + 50).map((k) => storage.write(k, Readable.from([Buffer.from('x')]))),
      );
    expect(await storage.list(prefix)).toEqual(names);
    await storage.removeAll(prefix);
    expect(await storage.list(prefix)).toEqual([]);
  }, 120_000);

  it('refuses keys that would leave the store or its prefix', async () => {
    for (const key of ['../evil', 'a/../../evil', '/etc/passwd', 'a//b', 'a\\b', 'a/./b', '', 'a\u0000b'])
      await expect(storage.get(key), key).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.removeAll('packages')).rejects.toThrow(/Unsafe storage prefix/);
    await expect(storage.removeAll('../')).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.write('../x', Readable.from([]))).rejects.toThrow(/Unsafe storage key/);
  });
});

describe('S3 specifics', () => {
  it('keeps every key under S3_PREFIX', async () => {
    const storage = createS3Storage(s3.settings);
    const bare = createS3Storage({ ...s3.settings, prefix: '' });
    const key = await storage.put('content', Buffer.from('png'), 'png');
    expect(await bare.get(`${s3.settings.prefix}/${key}`)).toEqual(Buffer.from('png'));
    expect(await bare.get(key)).toBeNull();
    await storage.remove(key);
  });

  it('an unreachable bucket is one clear line naming it, without the secret', async () => {
    await checkBucket(s3.settings);
    const wrong = { ...s3.settings, bucket: 'no-such-bucket' };
    const error = await checkBucket(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toMatch(
      /^File storage: the S3 bucket no-such-bucket at http:\/\/127\.0\.0\.1:\d+ cannot be reached \(HTTP 404\)\.$/,
    );
    expect((error as Error).message).not.toContain('S3RVER');
  });

  it('S3_* settings: the bucket turns S3 on; half the keys or a setting without the bucket stop the start', () => {
    const base = { NODE_ENV: 'test' as const };
    expect(loadConfig(base).s3).toBeUndefined();
    expect(loadConfig({ ...base, ...s3.env }).s3).toEqual(s3.settings);
    expect(loadConfig({ ...base, S3_BUCKET: 'my-bucket' }).s3).toMatchObject({
      bucket: 'my-bucket',
      region: 'us-east-1',
      forcePathStyle: false,
      prefix: '',
    });
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig({ ...base, ...env });
        return '';
      } catch (error) {
        return (error as Error).message;
      }
    };
    expect(refused({ S3_ENDPOINT: 'http://127.0.0.1:9000' })).toMatch(
      /^Configuration error: S3_BUCKET must be/,
    );
    expect(refused({ S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'AKIA' })).toBe(
      'Configuration error: S3_SECRET_ACCESS_KEY must be set together with S3_ACCESS_KEY_ID.',
    );
    const secret = refused({ S3_BUCKET: 'b-1', S3_SECRET_ACCESS_KEY: 'very-secret-value' });
    expect(secret).toMatch(/S3_ACCESS_KEY_ID/);
    expect(secret).not.toContain('very-secret-value');
    expect(refused({ S3_BUCKET: 'Not_A_Bucket' })).toMatch(/S3_BUCKET/);
    expect(refused({ S3_BUCKET: 'b-1', S3_PREFIX: '../up' })).toMatch(/S3_PREFIX/);
    expect(refused({ S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'yes' })).toMatch(/S3_FORCE_PATH_STYLE/);
  });
});

// The listing helper used above must see only files: a folder left behind on disk would be a leak.
it('local disk: removing a folder leaves no empty folder behind', async () => {
  const storage = createDiskStorage(diskRoot);
  await storage.write(
    'packages/55555555-5555-4555-8555-555555555555/a/b.js',
    Readable.from([Buffer.from('x')]),
  );
  await storage.removeAll('packages/55555555-5555-4555-8555-555555555555/');
  expect(readdirSync(path.join(diskRoot, 'packages'))).not.toContain('55555555-5555-4555-8555-555555555555');
});

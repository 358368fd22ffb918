import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, contentAuthor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import { startS3, type TestS3 } from '../../test/s3-server';
import { createS3Storage } from './s3';

/**
 * Issue 12 §4 "never a whole package in memory", measured: a 160 MB package (written by another process,
 * test/big-package.cjs) goes up to the server over a real socket and into S3 (a real S3-protocol server in another
 * process), and its 128 MB video comes back down through /packages/…, while this process (the server) samples its heap
 * and buffers from a collected baseline. Holding the package, or the video, whole would grow them by its size;
 * streaming keeps the growth to a few upload parts whatever the size.
 */
const MB = 1024 * 1024;
const BIG_MB = 128;
const COUNT = 4;
const EACH_MB = 8;
// A full collection before each baseline, so garbage of earlier work cannot be freed during the measurement.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

let s3: TestS3;
let h: Harness;
let dir: string;
let url: string;

beforeAll(async () => {
  s3 = await startS3('cc-memory', '');
  h = await createHarness({ s3: s3.settings, packageOrigin: undefined });
  await h.app.listen({ port: 0, host: '127.0.0.1' });
  const address = h.app.server.address();
  url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  dir = mkdtempSync(path.join(tmpdir(), 'cc-big-'));
});
afterAll(async () => {
  await h?.close();
  await s3?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The highest heap + buffer memory of this process while `work` runs, above what it was when it began. */
async function peakGrowth<T>(work: () => Promise<T>): Promise<{ result: T; growth: number }> {
  const used = () => {
    const m = process.memoryUsage();
    return m.heapUsed + m.arrayBuffers;
  };
  // Buffers' memory is freed just after a collection, not within it: collect, let it go, collect again.
  gc();
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
  const before = used();
  let peak = before;
  // What is alive, not garbage V8 has yet to collect (it lets up to ~64 MB of buffers wait): a collection before
  // each sample. A package or video held whole stays alive for seconds, so a sample a second sees it.
  const sample = () => {
    gc();
    peak = Math.max(peak, used());
  };
  const timer = setInterval(sample, 1000);
  try {
    const result = await work();
    sample();
    return { result, growth: peak - before };
  } finally {
    clearInterval(timer);
  }
}

function send(
  method: string,
  target: string,
  headers: Record<string, string | number>,
  parts: (Buffer | string)[],
): Promise<{ status: number; body: Buffer; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}${target}`, { method, headers }, (res) => {
      const keep: Buffer[] = [];
      let bytes = 0;
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (keep.length < 64) keep.push(chunk); // the JSON answer; a big download is only counted
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(keep), bytes }));
    });
    req.on('error', reject);
    (async () => {
      for (const part of parts) {
        if (typeof part === 'string') {
          // A file, streamed with the socket's back-pressure.
          for await (const chunk of createReadStream(part))
            if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        } else req.write(part);
      }
      req.end();
    })().catch(reject);
  });
}

it('uploads a 160 MB package into S3 and serves its 128 MB video without holding either in memory', async () => {
  const zip = path.join(dir, 'big.zip');
  execFileSync(process.execPath, [
    path.join(__dirname, '../../test/big-package.cjs'),
    zip,
    String(BIG_MB),
    String(COUNT),
    String(EACH_MB),
  ]);
  const size = statSync(zip).size;
  expect(size).toBeGreaterThan(160 * MB);
  const org = await buildEntity(h.db, { level: 'A' });
  const author = await contentAuthor(h.db, org.id);
  const content = await buildContent(h.db, org.id, { type: 'scorm' });
  const boundary = '----cc-big-package';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="package"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);

  const up = await peakGrowth(() =>
    send(
      'POST',
      `/api/content/${content.id}/package`,
      {
        ...author,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': head.length + size + tail.length,
      },
      [head, zip, tail],
    ),
  );
  expect(up.result.status, up.result.body.toString()).toBe(201);
  const pkg = JSON.parse(up.result.body.toString()).data;
  const stored = await createS3Storage(s3.settings).list(`packages/${pkg.uuid}/`);
  expect(stored).toHaveLength(COUNT + 3);
  console.log(
    `package upload: ${(size / MB).toFixed(0)} MB, memory growth ${(up.growth / MB).toFixed(1)} MB`,
  );
  expect(up.growth).toBeLessThan(size / 2);

  const base = pkg.launch_url.slice(0, pkg.launch_url.length - pkg.launch_path.length);
  const down = await peakGrowth(() => send('GET', `${base}media/big.mp4`, {}, []));
  expect(down.result.status).toBe(200);
  expect(down.result.bytes).toBe(BIG_MB * MB);
  console.log(`file download: ${BIG_MB} MB, memory growth ${(down.growth / MB).toFixed(1)} MB`);
  expect(down.growth).toBeLessThan((BIG_MB * MB) / 2);
}, 180_000);

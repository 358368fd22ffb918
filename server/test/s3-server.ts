import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { S3Settings } from '../src/config';

/**
 * A real S3-protocol server for the tests (issue 12 §4): s3rver in a process of its own (test/s3rver-main.cjs) on a
 * free port, the bucket in a temporary folder, so the test process's memory holds only what the server under test
 * holds. Its fixed credentials are S3RVER / S3RVER and it checks signatures with them: a request the SDK signed
 * wrongly fails here as it would on S3.
 */
export interface TestS3 {
  settings: S3Settings;
  /** Environment variables that configure the server for this bucket. */
  env: Record<string, string>;
  /** The folder s3rver keeps the bucket in. */
  directory: string;
  close(): Promise<void>;
}

export async function startS3(bucket = 'cc-test', prefix = 'site-a'): Promise<TestS3> {
  const directory = mkdtempSync(path.join(tmpdir(), 'cc-s3-'));
  const child = spawn(
    process.execPath,
    ['--openssl-legacy-provider', path.join(__dirname, 's3rver-main.cjs'), directory, bucket],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`s3rver exited with ${code}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).once('line', (line) =>
      resolve((JSON.parse(line) as { port: number }).port),
    );
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const settings: S3Settings = {
    bucket,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix,
  };
  return {
    settings,
    directory,
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_PREFIX: prefix,
    },
    async close() {
      child.removeAllListeners('exit');
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

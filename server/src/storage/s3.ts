import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import type { S3Settings } from '../config';
import { byteCounter, checkKey, checkPrefix, newKey, type Storage, StorageError } from './storage';

/**
 * An S3-compatible store (AWS S3, MinIO, Ceph, R2...; issue 12 §4): every server process reads and writes the same
 * bucket, so a package uploaded through one process is served by any other. Streams both ways: write() sends the
 * body in 5 MB parts (lib-storage's multipart upload, at most two parts in memory), read() hands S3's response
 * stream to the caller. All keys live under S3_PREFIX when one is set.
 * The server imports this module only when S3_BUCKET is set (bootstrap.ts, main.ts): the AWS SDK costs every
 * process ~6 MB of memory otherwise.
 */
const PART_BYTES = 5 * 1024 * 1024;

const isMissing = (error: unknown) => {
  const e = error as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
};

export function createS3Client(s3: S3Settings): S3Client {
  return new S3Client({
    region: s3.region,
    ...(s3.endpoint ? { endpoint: s3.endpoint } : {}),
    forcePathStyle: s3.forcePathStyle,
    // Explicit keys when configured, else the SDK's own chain (AWS_* variables, instance or task roles).
    ...(s3.accessKeyId && s3.secretAccessKey
      ? { credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey } }
      : {}),
    // Checksums only where S3 requires them: many S3-compatible servers refuse the newer default ones.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
}

export function createS3Storage(s3: S3Settings, client: S3Client = createS3Client(s3)): Storage {
  const Bucket = s3.bucket;
  const base = s3.prefix ? `${s3.prefix}/` : '';
  const full = (key: string) => base + checkKey(key);

  async function getObject(key: string, range?: string) {
    try {
      return await client.send(
        new GetObjectCommand({ Bucket, Key: full(key), ...(range ? { Range: range } : {}) }),
      );
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async function list(prefix: string): Promise<string[]> {
    const Prefix = base + checkPrefix(prefix);
    const keys: string[] = [];
    let ContinuationToken: string | undefined;
    do {
      const page = await client.send(new ListObjectsV2Command({ Bucket, Prefix, ContinuationToken }));
      for (const object of page.Contents ?? []) if (object.Key) keys.push(object.Key.slice(base.length));
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken);
    return keys.sort();
  }

  return {
    kind: 's3',
    async put(prefix, bytes, extension) {
      const key = newKey(prefix, extension);
      await client.send(new PutObjectCommand({ Bucket, Key: full(key), Body: bytes }));
      return key;
    },
    async get(key) {
      const object = await getObject(key);
      if (!object?.Body) return null;
      return Buffer.from(await object.Body.transformToByteArray());
    },
    async remove(key) {
      await client.send(new DeleteObjectCommand({ Bucket, Key: full(key) }));
    },
    async write(key, body, contentType) {
      const counter = byteCounter();
      const upload = new Upload({
        client,
        params: {
          Bucket,
          Key: full(key),
          Body: counter,
          ...(contentType ? { ContentType: contentType } : {}),
        },
        partSize: PART_BYTES,
        queueSize: 2,
      });
      // The source is piped in (not handed over) so an error on either side ends both.
      const piping = pipeline(body, counter);
      try {
        await upload.done();
      } catch (error) {
        counter.destroy(error as Error);
        await piping.catch(() => undefined);
        throw error;
      }
      await piping;
      return counter.bytes;
    },
    async read(key, range) {
      const object = await getObject(key, range ? `bytes=${range.start}-${range.end}` : undefined);
      if (!object?.Body) return null;
      return { body: object.Body as Readable, size: Number(object.ContentLength ?? 0) };
    },
    async head(key) {
      try {
        const object = await client.send(new HeadObjectCommand({ Bucket, Key: full(key) }));
        return { size: Number(object.ContentLength ?? 0) };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    list,
    async removeAll(prefix) {
      const keys = await list(prefix);
      for (let i = 0; i < keys.length; i += 1000) {
        const Objects = keys.slice(i, i + 1000).map((key) => ({ Key: base + key }));
        const answer = await client.send(
          new DeleteObjectsCommand({ Bucket, Delete: { Objects, Quiet: true } }),
        );
        if (answer.Errors?.length)
          throw new Error(`Could not remove ${answer.Errors.length} files under ${prefix} from the bucket`);
      }
    },
  };
}

/** One clear line at start when the bucket cannot be reached (main.ts), instead of a failure at the first upload. */
export async function checkBucket(s3: S3Settings, client: S3Client = createS3Client(s3)): Promise<void> {
  try {
    await client.send(new HeadBucketCommand({ Bucket: s3.bucket }));
  } catch (error) {
    const e = error as { name?: string; code?: string; $metadata?: { httpStatusCode?: number } };
    const why = e.$metadata?.httpStatusCode
      ? `HTTP ${e.$metadata.httpStatusCode}`
      : e.name === 'CredentialsProviderError'
        ? 'no credentials: set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or give the process an AWS role'
        : (e.code ?? e.name ?? 'error');
    throw new StorageError(
      `File storage: the S3 bucket ${s3.bucket}${s3.endpoint ? ` at ${s3.endpoint}` : ''} cannot be reached (${why}).`,
    );
  }
}

import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ContentPerm as P, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { bearer, buildEntity, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent, buildCourse } from '../../test/learning-factories';
import { multipart } from '../../test/package-factories';
import { startS3, type TestS3 } from '../../test/s3-server';
import { buildApp } from '../app';
import { SCORM_BRIDGE_TAG } from '../packages/routes';
import { createS3Storage } from './s3';
import type { Storage } from './storage';

/**
 * The server with S3 configured (issue 12 §4), end to end over its HTTP API against a real S3-protocol server: a
 * real SCORM package (../shared/acceptance/packages) is extracted into the bucket, launched and served from it,
 * evidence goes in and out, and deleting the content takes its files out of the bucket. Nothing lands on local disk.
 */
const PACKAGES = path.resolve(__dirname, '../../../../shared/acceptance/packages');
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8ffff3f0005fe02fea7d6a4a40000000049454e44ae426082',
  'hex',
);

let s3: TestS3;
let h: Harness;
let bucket: Storage;
let author: Record<string, string>;
let admin: Record<string, string>;
let org: { id: number };

beforeAll(async () => {
  s3 = await startS3('cc-e2e', 'e2e');
  h = await createHarness({ s3: s3.settings, packageOrigin: undefined });
  bucket = createS3Storage(s3.settings);
  org = await buildEntity(h.db, { level: 'A' });
  author = await bearer(
    h.db,
    (
      await buildUser(h.db, {
        entityId: org.id,
        permissions: [P.contentCreator, P.addContent, P.editContent, P.addCourses, P.editCourses],
      })
    ).id,
  );
  admin = await bearer(
    h.db,
    (await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) })).id,
  );
});
afterAll(async () => {
  await h?.close();
  await s3?.close();
});

/** One entry of a zip on disk, read with yauzl (what the package held, to compare with what is served). */
function zipEntry(file: string, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err || !zip) return reject(err);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (entry.fileName !== name) return zip.readEntry();
        zip.openReadStream(entry, (e, stream) => {
          if (e || !stream) return reject(e);
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            zip.close();
            resolve(Buffer.concat(chunks));
          });
        });
      });
      zip.on('end', () => reject(new Error(`${name} is not in ${file}`)));
      zip.readEntry();
    }),
  );
}

const get = (url: string, headers: Record<string, string> = {}) =>
  h.app.inject({ method: 'GET', url, headers });

describe('the server with S3 file storage', () => {
  it('extracts a real SCORM package into the bucket, serves it from there, and removes it with its content', async () => {
    const zip = path.join(PACKAGES, 'moodle-scorm12-singlescobasic.zip');
    const content = await buildContent(h.db, org.id, { type: 'scorm' });
    const body = multipart('package', 'golf.zip', readFileSync(zip));
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/content/${content.id}/package`,
      headers: { ...author, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const pkg = res.json().data;
    const prefix = `packages/${pkg.uuid}/`;
    const keys = await bucket.list(prefix);
    expect(keys).toContain(`${prefix}imsmanifest.xml`);
    expect(keys).toContain(`${prefix}Etiquette/course.jpg`);
    expect(keys.length).toBeGreaterThan(20);

    // Launch: the SCO's page with the bridge put in, and a picture byte for byte, both from the bucket.
    const launch = await get(pkg.launch_url);
    expect(launch.statusCode).toBe(200);
    expect(launch.body).toContain(SCORM_BRIDGE_TAG);
    const base = pkg.launch_url.slice(0, pkg.launch_url.length - pkg.launch_path.length);
    const picture = await get(`${base}Etiquette/course.jpg`);
    expect(picture.statusCode).toBe(200);
    expect(picture.headers['content-type']).toBe('image/jpeg');
    const original = await zipEntry(zip, 'Etiquette/course.jpg');
    expect(picture.rawPayload.equals(original)).toBe(true);
    // A byte range (media seeking) comes from the bucket as a range too.
    const part = await get(`${base}Etiquette/course.jpg`, { range: 'bytes=100-199' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${original.length}`);
    expect(part.rawPayload.equals(original.subarray(100, 200))).toBe(true);
    expect(
      (await get(`${base}Etiquette/course.jpg`, { range: `bytes=${original.length}-` })).statusCode,
    ).toBe(416);
    expect((await get(`${base}Etiquette/nope.jpg`)).statusCode).toBe(404);
    expect((await get(`${base}Etiquette/%2e%2e/%2e%2e/%2e%2e/${pkg.uuid}/imsmanifest.xml`)).statusCode).toBe(
      404,
    );

    // Another server process (its own DATA_DIR and store client, the same database and bucket) serves it too.
    const otherDir = mkdtempSync(path.join(tmpdir(), 'cc-other-'));
    const other = await buildApp({
      ...h.deps,
      config: { ...h.deps.config, dataDir: otherDir },
      storage: createS3Storage(s3.settings),
    });
    try {
      const there = await other.inject({ method: 'GET', url: `${base}Etiquette/course.jpg` });
      expect(there.statusCode).toBe(200);
      expect(there.rawPayload.equals(original)).toBe(true);
    } finally {
      await other.close();
      rmSync(otherDir, { recursive: true, force: true });
    }

    // Deleting the content takes its package's files out of the bucket.
    const deleted = await h.app.inject({
      method: 'DELETE',
      url: `/api/content/${content.id}`,
      headers: author,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    expect(await bucket.list(prefix)).toEqual([]);
    expect((await get(`${base}Etiquette/course.jpg`)).statusCode).toBe(404);
  });

  it('a new upload replaces the package in the bucket; a refused one leaves nothing behind', async () => {
    const content = await buildContent(h.db, org.id, { type: 'scorm' });
    const upload = (file: Buffer) => {
      const body = multipart('package', 'p.zip', file);
      return h.app.inject({
        method: 'POST',
        url: `/api/content/${content.id}/package`,
        headers: { ...author, ...body.headers },
        payload: body.payload,
      });
    };
    const first = (await upload(readFileSync(path.join(PACKAGES, 'moodle-scorm12-complexscorm.zip')))).json()
      .data;
    const before = await bucket.list('packages/');
    const second = await upload(
      readFileSync(path.join(PACKAGES, 'moodle-scorm2004-RuntimeBasicCalls_SCORM20043rdEdition.zip')),
    );
    expect(second.statusCode, second.body).toBe(201);
    expect(second.json().data.version).toBe('2004');
    expect(await bucket.list(`packages/${first.uuid}/`)).toEqual([]);
    expect((await bucket.list(`packages/${second.json().data.uuid}/`)).length).toBeGreaterThan(0);

    // An H5P file is not a SCORM package: 422, and the bucket holds what it held.
    const listing = await bucket.list('packages/');
    const refused = await upload(readFileSync(path.join(PACKAGES, 'tunapanda-h5p-truefalse-h5p-test.h5p')));
    expect(refused.statusCode).toBe(422);
    expect(await bucket.list('packages/')).toEqual(listing);
    expect(before.length).toBeGreaterThan(0);
  });

  it('serves an H5P package from the bucket and removes it with the H5P item', async () => {
    const file = path.join(PACKAGES, 'tunapanda-h5p-truefalse-h5p-test.h5p');
    const created = await h.app.inject({
      method: 'POST',
      url: '/api/h5ps',
      headers: author,
      payload: { title: 'True or false', platform: false },
    });
    expect(created.statusCode, created.body).toBeLessThan(300);
    const id = created.json().data.id;
    const body = multipart('package', 'tf.h5p', readFileSync(file));
    const res = await h.app.inject({
      method: 'POST',
      url: `/api/h5ps/${id}/package`,
      headers: { ...author, ...body.headers },
      payload: body.payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const pkg = res.json().data;
    const served = await get(`${pkg.base_url}/h5p.json`);
    expect(served.statusCode).toBe(200);
    expect(served.rawPayload.equals(await zipEntry(file, 'h5p.json'))).toBe(true);
    expect(
      (await h.app.inject({ method: 'DELETE', url: `/api/h5ps/${id}`, headers: author })).statusCode,
    ).toBeLessThan(300);
    expect(await bucket.list(`packages/${pkg.uuid}/`)).toEqual([]);
  });

  it('keeps evidence in the bucket and serves it back', async () => {
    const learner = await buildUser(h.db, { entityId: org.id, permissions: [6] });
    const course = await buildCourse(h.db, org.id, { title: `Fire safety ${Math.random()}` });
    const boundary = '----cc-s3-evidence';
    const fields = { user_id: String(learner.id), course_id: String(course.id), completed_at: '2024-02-01' };
    const payload = Buffer.concat([
      ...Object.entries(fields).map(([k, v]) =>
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
      ),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="evidence"; filename="scan.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await h.app.inject({
      method: 'POST',
      url: '/api/results/historical/create',
      headers: { ...admin, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
    expect(res.statusCode, res.body).toBe(201);
    const evidence = res.json().data.evidence;
    const row = await h.db
      .selectFrom('files')
      .select('storage_key')
      .where('id', '=', evidence.id)
      .executeTakeFirstOrThrow();
    expect(await bucket.get(row.storage_key)).toEqual(PNG);
    const download = await get(evidence.url, admin);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
  });

  it('writes no uploaded file to local disk', () => {
    expect(existsSync(path.join(h.deps.config.dataDir, 'files'))).toBe(false);
  });
});

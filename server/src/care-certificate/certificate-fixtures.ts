import { CareCertificatePerm as P } from '@cc/contracts';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import type { Harness } from '../../test/harness';
import type { Db } from '../db/connect';

/** Test data of the core part (issue 16): organisations, people with the certificate permissions, helpers. */

export const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n', 'latin1');

/** A group with a home; a manager (86), an observer (89), a learner, a member without permissions; another group. */
export async function certificateWorld(h: Harness) {
  const group = await buildEntity(h.db, { level: 'A', name: 'Oak Care' });
  const home = await buildEntity(h.db, { level: 'B', parentId: group.id, name: 'Oak Home' });
  const manager = await buildUser(h.db, { entityId: group.id, permissions: [P.assign] });
  const observer = await buildUser(h.db, { entityId: group.id, permissions: [P.observe] });
  const learner = await buildUser(h.db, { entityId: home.id, name: 'Lee Learner' });
  const member = await buildUser(h.db, { entityId: home.id });
  const other = await buildEntity(h.db, { level: 'A', name: 'Elm Care' });
  const outsider = await buildUser(h.db, {
    entityId: other.id,
    permissions: Object.values(P),
  });
  const admin = await buildUser(h.db, { superAdmin: true });
  return { group, home, manager, observer, learner, member, other, outsider, admin };
}

export const versionId = async (db: Db, code = '2025') =>
  (
    await db
      .selectFrom('care_certificate_versions')
      .select('id')
      .where('code', '=', code)
      .executeTakeFirstOrThrow()
  ).id;

/** The criteria of one standard of a version. */
export async function criteriaOf(db: Db, version: number, number: number) {
  return db
    .selectFrom('care_certificate_criteria as k')
    .innerJoin('care_certificate_standards as s', 's.id', 'k.standard_id')
    .select(['k.id', 'k.standard_id', 'k.requires_observation'])
    .where('s.version_id', '=', version)
    .where('s.number', '=', number)
    .orderBy('k.position')
    .execute();
}

export const as = (h: Harness, userId: number) => clientFor(h.app, h.db, userId);

/** A multipart/form-data body built by hand (what a browser's FormData sends), the file in part `file`. */
export function multipartForm(
  fields: [string, string][],
  file?: { filename: string; bytes: Buffer; type?: string },
) {
  const boundary = `----cc-test-${Math.random().toString(16).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of fields)
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
    );
  if (file)
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.type ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    );
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(chunks),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function upload(
  h: Harness,
  userId: number,
  url: string,
  fields: [string, string][],
  file?: { filename: string; bytes: Buffer; type?: string },
) {
  const form = multipartForm(fields, file);
  return h.app.inject({
    method: 'POST',
    url,
    payload: form.payload,
    headers: { ...(await bearer(h.db, userId)), ...form.headers },
  });
}

/** Assigns straight through the API as `byId` and returns the certificate's uuid. */
export async function assign(h: Harness, byId: number, userId: number, version: number) {
  const res = await (await as(h, byId))('POST', '/api/care-certificates', {
    user_id: userId,
    version_id: version,
  });
  if (res.statusCode !== 201) throw new Error(`assign: ${res.statusCode} ${res.body}`);
  return res.json().data.uuid as string;
}

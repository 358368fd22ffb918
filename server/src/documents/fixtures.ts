import { LibraryPerm as P } from '@cc/contracts';
import { buildEntity, buildRole, buildUser } from '../../test/factories';
import type { Harness } from '../../test/harness';
import { as, multipartForm, PDF, PNG, upload } from '../care-certificate/certificate-fixtures';

export { as, multipartForm, PDF, PNG, upload };

/** An HTML page renamed .pdf: the upload check must refuse it by its bytes. */
export const HTML = Buffer.from(
  '<!doctype html><html><body><script>alert(1)</script></body></html>',
  'latin1',
);
/** The smallest thing that looks like a .docx by its parts (a ZIP with [Content_Types].xml and word/document.xml). */
export const DOCX = Buffer.concat([
  Buffer.from([0x50, 0x4b, 0x03, 0x04]),
  Buffer.alloc(26),
  Buffer.from('[Content_Types].xml....word/document.xml', 'latin1'),
]);

/**
 * A group with a home; a manager at the group (134, 135, 136); a home manager (134 only); a learner in the care role
 * at the home; a member without permissions; another group with an outsider holding every library permission.
 */
export async function documentsWorld(h: Harness) {
  const group = await buildEntity(h.db, { level: 'A', name: 'Birch Care' });
  const home = await buildEntity(h.db, { level: 'B', parentId: group.id, name: 'Birch House' });
  const role = await buildRole(h.db, group.id, { name: 'Care assistant' });
  const manager = await buildUser(h.db, {
    entityId: group.id,
    permissions: [P.view, P.manage, P.acknowledgements],
    name: 'Mia Manager',
  });
  const viewer = await buildUser(h.db, { entityId: home.id, permissions: [P.view] });
  const learner = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Lee Learner' });
  const member = await buildUser(h.db, { entityId: home.id });
  const other = await buildEntity(h.db, { level: 'A', name: 'Elm Care' });
  const outsider = await buildUser(h.db, { entityId: other.id, permissions: Object.values(P) });
  return { group, home, role, manager, viewer, learner, member, other, outsider };
}
export type DocumentsWorld = Awaited<ReturnType<typeof documentsWorld>>;

export async function makeLibrary(h: Harness, byId: number, name = 'Policies', entity?: string) {
  const res = await (await as(h, byId))('POST', '/api/libraries', { name, ...(entity ? { entity } : {}) });
  if (res.statusCode !== 201) throw new Error(`library: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: number };
}

export async function makeDocument(
  h: Harness,
  byId: number,
  libraryId: number,
  o: { title?: string; question?: unknown; bytes?: Buffer; filename?: string } = {},
) {
  const fields: [string, string][] = [['title', o.title ?? 'Safeguarding policy']];
  if (o.question) fields.push(['check_question', JSON.stringify(o.question)]);
  const res = await upload(h, byId, `/api/libraries/${libraryId}/documents`, fields, {
    filename: o.filename ?? 'policy.pdf',
    bytes: o.bytes ?? PDF,
    type: 'application/pdf',
  });
  if (res.statusCode !== 201) throw new Error(`document: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: number; course_id: number; version: number };
}

/** A library and a document required of the care role at the home. */
export async function requiredDocument(h: Harness, w: DocumentsWorld, o: { question?: unknown } = {}) {
  const library = await makeLibrary(h, w.manager.id);
  const doc = await makeDocument(h, w.manager.id, library.id, o);
  const res = await (await as(h, w.manager.id))('PUT', `/api/documents/${doc.id}/requirements`, {
    entity: w.home.slug,
    role_ids: [w.role.id],
  });
  if (res.statusCode !== 200) throw new Error(`requirements: ${res.statusCode} ${res.body}`);
  return { library, doc };
}

/** Opens the current file as the user (acknowledging needs it). */
export async function open(h: Harness, userId: number, docId: number, version = 1) {
  return (await as(h, userId))('GET', `/api/documents/${docId}/versions/${version}/file`);
}

/** Publishes a new version as the user. */
export async function newVersion(h: Harness, userId: number, docId: number, note = 'Updated contacts') {
  return upload(h, userId, `/api/documents/${docId}/versions`, [['change_note', note]], {
    filename: 'policy-v2.pdf',
    bytes: PDF,
  });
}

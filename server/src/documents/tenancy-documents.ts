import type { Db } from '../db/connect';

/**
 * Documents and libraries in server/test/tenancy.test.ts (issue 17): a library of the target's site holding a
 * document (its backing course, version 1 and file row), and the cases calling every library and document route with
 * them (outsider: 404 and nothing changes; insider without permissions: 403).
 */
export interface DocumentsFixture {
  libraryId: number;
  documentId: number;
  libraryName: string;
  documentTitle: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  documents: DocumentsFixture;
  site: { slug: string };
  role: { id: number };
}
interface DocumentsCase {
  method: Method;
  route: string;
  url: (f: F) => string;
  body?: (f: F) => unknown;
  kind: 'scoped';
}

export async function documentsFixture(
  db: Db,
  o: { siteId: number; victimId: number; canary: string },
): Promise<DocumentsFixture> {
  const libraryName = `${o.canary} Policies`;
  const documentTitle = `${o.canary} Safeguarding policy`;
  const library = await db
    .insertInto('libraries')
    .values({ entity_id: o.siteId, name: libraryName, created_by: o.victimId })
    .returning('id')
    .executeTakeFirstOrThrow();
  const course = await db
    .insertInto('courses')
    .values({ entity_id: o.siteId, title: documentTitle, kind: 'document' })
    .returning('id')
    .executeTakeFirstOrThrow();
  const doc = await db
    .insertInto('documents')
    .values({ library_id: library.id, entity_id: o.siteId, course_id: course.id, title: documentTitle })
    .returning('id')
    .executeTakeFirstOrThrow();
  const file = await db
    .insertInto('files')
    .values({
      entity_id: o.siteId,
      purpose: 'document',
      storage_key: 'documents/tenancy-missing.pdf',
      original_name: `${o.canary}.pdf`,
      mime_type: 'application/pdf',
      size_bytes: 10,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const version = await db
    .insertInto('document_versions')
    .values({ document_id: doc.id, number: 1, file_id: file.id, created_by: o.victimId })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .updateTable('documents')
    .set({ current_version_id: version.id })
    .where('id', '=', doc.id)
    .execute();
  return { libraryId: library.id, documentId: doc.id, libraryName, documentTitle };
}

export function documentsCases(): DocumentsCase[] {
  const scoped = (method: Method, route: string, url: (f: F) => string, body?: (f: F) => unknown) => ({
    method,
    route,
    url,
    ...(body ? { body } : {}),
    kind: 'scoped' as const,
  });
  const library = (f: F) => `/api/libraries/${f.documents.libraryId}`;
  const doc = (f: F) => `/api/documents/${f.documents.documentId}`;
  return [
    scoped(
      'POST',
      '/api/libraries',
      () => '/api/libraries',
      (f) => ({ name: 'Mine', entity: f.site.slug }),
    ),
    scoped('GET', '/api/libraries/:id', library),
    scoped('PATCH', '/api/libraries/:id', library, () => ({ name: 'Renamed' })),
    scoped('DELETE', '/api/libraries/:id', library),
    scoped('GET', '/api/libraries/:id/documents', (f) => `${library(f)}/documents`),
    scoped(
      'POST',
      '/api/libraries/:id/documents',
      (f) => `${library(f)}/documents`,
      () => ({ title: 'Mine' }),
    ),
    scoped('PATCH', '/api/documents/:id', doc, () => ({ title: 'Renamed' })),
    scoped('DELETE', '/api/documents/:id', doc),
    scoped(
      'POST',
      '/api/documents/:id/versions',
      (f) => `${doc(f)}/versions`,
      () => ({ change_note: 'x' }),
    ),
    scoped('GET', '/api/documents/:id/acknowledgements', (f) => `${doc(f)}/acknowledgements`),
    scoped('POST', '/api/documents/:id/remind', (f) => `${doc(f)}/remind`),
    scoped(
      'PUT',
      '/api/documents/:id/requirements',
      (f) => `${doc(f)}/requirements`,
      (f) => ({
        entity: f.site.slug,
        role_ids: [f.role.id],
      }),
    ),
  ];
}

/** GET /libraries: another organisation's list never shows the target's library. */
export const documentsLists = () => [
  {
    method: 'GET' as const,
    route: '/api/libraries',
    url: () => '/api/libraries?per_page=100',
    secrets: (f: F) => [f.documents.libraryName],
    insider: 403 as const,
  },
];

export const DOCUMENTS_TABLES = [
  'libraries',
  'documents',
  'document_versions',
  'document_views',
  'document_acknowledgements',
] as const;

const OPEN_IN_SCOPE =
  'every member of the library’s organisations may open and acknowledge it (contracts documents.ts); another ' +
  "organisation's 404 is tested in src/documents/documents.test.ts and acknowledge.test.ts";
export const DOCUMENTS_EXEMPT: Record<string, string> = {
  'GET /api/documents/mine': 'the caller only',
  'GET /api/documents/:id': OPEN_IN_SCOPE,
  'GET /api/documents/:id/versions/:number/file': OPEN_IN_SCOPE,
  'POST /api/documents/:id/acknowledge': OPEN_IN_SCOPE,
};

import { DocumentMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { documentsWorld, HTML, open, PDF } from './fixtures';

/** Documents and libraries over GraphQL: the same services, rules and answers as REST (401, 422, 403, 404, happy). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

interface Gql {
  // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by the query each test sends.
  data?: Record<string, any> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}

async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as Gql;
}

/** A GraphQL multipart request (operations + map) with the file as variable `file`. */
async function gqlUpload(userId: number, query: string, variables: Record<string, unknown>, bytes: Buffer) {
  const boundary = `----cc${Date.now()}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const payload = Buffer.concat([
    field('operations', JSON.stringify({ query, variables: { ...variables, file: null } })),
    field('map', JSON.stringify({ 0: ['variables.file'] })),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="policy.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: { ...(await bearer(h.db, userId)), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  return res.json() as Gql;
}

const CREATE_DOCUMENT = `mutation ($lib: ID!, $title: String!, $q: JSON, $file: Upload!) {
  createDocument(libraryId: $lib, title: $title, check_question: $q, file: $file) {
    id title version my_status current { number mime_type display file_url } check_question { question options correct }
  }
}`;
const code = (r: Gql) => r.errors?.[0]?.extensions?.code;

describe('GraphQL documents and libraries', () => {
  it('creates a library and a document, lists, reads, acknowledges; refuses like REST', async () => {
    const w = await documentsWorld(h);
    const lib = await gql(
      w.manager.id,
      'mutation ($input: LibraryInput!) { createLibrary(input: $input) { id name can_manage entity { id } } }',
      { input: { name: 'Policies' } },
    );
    expect(lib.errors).toBeUndefined();
    expect(lib.data?.createLibrary).toMatchObject({
      name: 'Policies',
      can_manage: true,
      entity: { id: String(w.group.id) },
    });
    const libId = lib.data?.createLibrary.id;
    const renamed = await gql(
      w.manager.id,
      'mutation ($id: ID!, $input: LibraryInput!) { updateLibrary(id: $id, input: $input) { name } }',
      { id: libId, input: { name: 'Our policies' } },
    );
    expect(renamed.data?.updateLibrary).toEqual({ name: 'Our policies' });
    const created = await gqlUpload(
      w.manager.id,
      CREATE_DOCUMENT,
      { lib: libId, title: 'Safeguarding policy', q: { question: 'Who?', options: ['A', 'B'], correct: 1 } },
      PDF,
    );
    expect(created.errors).toBeUndefined();
    const doc = created.data?.createDocument;
    expect(doc).toMatchObject({
      title: 'Safeguarding policy',
      version: 1,
      current: { number: 1, mime_type: 'application/pdf', display: 'inline' },
      check_question: { question: 'Who?', options: ['A', 'B'], correct: 1 },
    });
    const refused = await gqlUpload(w.manager.id, CREATE_DOCUMENT, { lib: libId, title: 'Fake' }, HTML);
    expect(code(refused)).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(refused.errors)).toContain(M.fileType);

    const libraries = await gql(
      w.viewer.id,
      '{ libraries(first: 10) { data { name document_count } paginatorInfo { total } } }',
    );
    expect(libraries.data?.libraries).toEqual({
      data: [{ name: 'Our policies', document_count: 1 }],
      paginatorInfo: { total: 1 },
    });
    const documents = await gql(
      w.viewer.id,
      'query ($id: ID!) { documents(libraryId: $id) { data { id title my_status } } }',
      {
        id: libId,
      },
    );
    expect(documents.data?.documents.data).toEqual([
      { id: doc.id, title: 'Safeguarding policy', my_status: 'not_required' },
    ]);
    const one = await gql(
      w.member.id,
      'query ($id: ID!) { document(id: $id) { title check_question { correct } } }',
      {
        id: doc.id,
      },
    );
    expect(one.data?.document).toEqual({ title: 'Safeguarding policy', check_question: { correct: null } });

    // Acknowledging: open first, right answer, own name.
    const ACK =
      'mutation ($id: ID!, $input: AcknowledgeDocumentInput!) { acknowledgeDocument(id: $id, input: $input) { my_status my_acknowledgement { version } } }';
    const input = { typed_name: 'Lee Learner', answer: 1, version: 1 };
    expect(code(await gql(w.learner.id, ACK, { id: doc.id, input }))).toBe('CONFLICT');
    await open(h, w.learner.id, Number(doc.id));
    expect(code(await gql(w.learner.id, ACK, { id: doc.id, input: { ...input, answer: 0 } }))).toBe(
      'BAD_USER_INPUT',
    );
    const ack = await gql(w.learner.id, ACK, { id: doc.id, input });
    expect(ack.errors).toBeUndefined();
    expect(ack.data?.acknowledgeDocument).toEqual({
      my_status: 'acknowledged',
      my_acknowledgement: { version: 1 },
    });
    const mine = await gql(w.learner.id, '{ myDocuments { id } }');
    expect(mine.data?.myDocuments).toEqual([]);
    const acks = await gql(
      w.manager.id,
      'query ($id: ID!) { documentAcknowledgements(id: $id) { data { current } paginatorInfo { total } } }',
      {
        id: doc.id,
      },
    );
    expect(acks.errors).toBeUndefined();
    expect(acks.data?.documentAcknowledgements.paginatorInfo.total).toBe(0);

    // 401, 403, 404.
    expect(code(await gql(null, '{ libraries { data { id } } }'))).toBe('UNAUTHENTICATED');
    expect(code(await gql(w.member.id, '{ libraries { data { id } } }'))).toBe('FORBIDDEN');
    expect(code(await gql(w.viewer.id, 'mutation { createLibrary(input: { name: "Mine" }) { id } }'))).toBe(
      'FORBIDDEN',
    );
    expect(
      code(await gql(w.outsider.id, 'query ($id: ID!) { library(id: $id) { id } }', { id: libId })),
    ).toBe('NOT_FOUND');
    expect(
      code(await gql(w.outsider.id, 'query ($id: ID!) { document(id: $id) { id } }', { id: doc.id })),
    ).toBe('NOT_FOUND');
    const outsiderUpload = await gqlUpload(
      w.outsider.id,
      CREATE_DOCUMENT,
      { lib: libId, title: 'Mine' },
      PDF,
    );
    expect(code(outsiderUpload)).toBe('NOT_FOUND');
    expect(code(await gql(w.manager.id, 'mutation { createLibrary(input: { name: "" }) { id } }'))).toBe(
      'BAD_USER_INPUT',
    );
  });

  it('adds a version over GraphQL: staff are asked again', async () => {
    const w = await documentsWorld(h);
    const lib = (await gql(w.manager.id, 'mutation { createLibrary(input: { name: "P" }) { id } }')).data
      ?.createLibrary;
    const doc = (await gqlUpload(w.manager.id, CREATE_DOCUMENT, { lib: lib.id, title: 'Policy' }, PDF)).data
      ?.createDocument;
    const ADD =
      'mutation ($id: ID!, $note: String!, $file: Upload!) { addDocumentVersion(id: $id, change_note: $note, file: $file) { version current { change_note } } }';
    const added = await gqlUpload(w.manager.id, ADD, { id: doc.id, note: 'New numbers' }, PDF);
    expect(added.errors).toBeUndefined();
    expect(added.data?.addDocumentVersion).toEqual({ version: 2, current: { change_note: 'New numbers' } });
    expect(code(await gqlUpload(w.viewer.id, ADD, { id: doc.id, note: 'x' }, PDF))).toBe('FORBIDDEN');
    expect(code(await gqlUpload(w.manager.id, ADD, { id: doc.id, note: '' }, PDF))).toBe('BAD_USER_INPUT');
  });
});

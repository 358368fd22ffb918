import { CreateLibraryBody } from '@cc/contracts';
import type { PatchFixture, Row, World } from '../../test/patch-fixtures';
import { multipartForm, PDF } from '../care-certificate/certificate-fixtures';

/**
 * Libraries and documents in test/patch-fixtures.ts (issue 17): each created with every field off its default and
 * read back through the API.
 */
const uid = () => Math.random().toString(36).slice(2, 8);

async function dataOf(res: { statusCode: number; body: string; json(): unknown }): Promise<Row> {
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Row }).data;
}
const get = async (w: World, url: string) => dataOf(await w.admin('GET', url));

async function newLibrary(w: World) {
  return dataOf(
    await w.admin('POST', '/api/libraries', {
      entity: w.org.slug,
      name: `Policies ${uid()}`,
      description: 'Read these',
    }),
  );
}

const library: PatchFixture<{ id: number }> = {
  async create(w) {
    return { id: (await newLibrary(w)).id as number };
  },
  url: (s) => `/api/libraries/${s.id}`,
  values: () => ({ name: `Procedures ${uid()}`, description: 'Changed' }),
  async read(s, w) {
    const row = await get(w, `/api/libraries/${s.id}`);
    return { name: row.name, description: row.description };
  },
  createSchema: CreateLibraryBody,
};

const document: PatchFixture<{ id: number }> = {
  async create(w) {
    const lib = await newLibrary(w);
    const form = multipartForm(
      [
        ['title', 'Safeguarding policy'],
        ['description', 'Who to tell'],
        ['check_question', JSON.stringify({ question: 'Who?', options: ['A', 'B'], correct: 1 })],
      ],
      { filename: 'policy.pdf', bytes: PDF, type: 'application/pdf' },
    );
    const res = await w.h.app.inject({
      method: 'POST',
      url: `/api/libraries/${lib.id}/documents`,
      payload: form.payload,
      headers: { ...w.adminHeaders, ...form.headers },
    });
    return { id: (await dataOf(res)).id as number };
  },
  url: (s) => `/api/documents/${s.id}`,
  values: () => ({
    title: `Whistleblowing ${uid()}`,
    description: 'Changed',
    check_question: { question: 'Why?', options: ['X', 'Y', 'Z'], correct: 2 },
  }),
  async read(s, w) {
    const row = await get(w, `/api/documents/${s.id}`);
    return { title: row.title, description: row.description, check_question: row.check_question_full };
  },
};

export const DOCUMENTS_PATCH_FIXTURES = {
  'PATCH /api/libraries/{id}': library,
  'PATCH /api/documents/{id}': document,
};

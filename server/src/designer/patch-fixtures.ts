import { CreateDesignBody } from '@cc/contracts';
import type { PatchFixture, Row, World } from '../../test/patch-fixtures';

/**
 * The content designer's row in test/patch-fixtures.ts (issue 17): a design created with a title and pages (none
 * of the create's defaults) and saved one field at a time with the revision it was read at (`always`).
 */
async function dataOf(res: { statusCode: number; body: string; json(): unknown }): Promise<Row> {
  if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${res.body}`);
  return (res.json() as { data: Row }).data;
}

const page = (id: string, title: string, text: string) => ({
  id,
  title,
  blocks: [{ id: `${id}-b`, type: 'heading', text, level: 3 }],
});

const design: PatchFixture<{ id: number }> = {
  createSchema: CreateDesignBody,
  async create(w: World) {
    const row = await dataOf(
      await w.admin('POST', '/api/designs', {
        entity: w.org.slug,
        title: 'Infection control',
        pages: [page('p1', 'Hands', 'Wash well')],
      }),
    );
    return { id: row.id as number };
  },
  url: (s) => `/api/designs/${s.id}`,
  values: () => ({ title: 'Infection prevention', pages: [page('p2', 'Gloves', 'When to wear them')] }),
  async always(s, w) {
    return { revision: (await dataOf(await w.admin('GET', `/api/designs/${s.id}`))).revision };
  },
  read: async (s, w) => dataOf(await w.admin('GET', `/api/designs/${s.id}`)),
  effects: { pages: ['pages', 'page_count'] },
  volatile: ['revision'],
};

export const DESIGNER_PATCH_FIXTURES: Record<string, PatchFixture> = { 'PATCH /api/designs/{id}': design };

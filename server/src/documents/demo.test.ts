import { LibraryPerm as P } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';
import { DEMO_LIBRARY, DEMO_SAFEGUARDING, DEMO_WHISTLEBLOWING } from './demo';

/** The documents demo, read back through the API as the demo manager and the demo learner see it. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db, h.deps.storage);
}, 180_000);
afterAll(async () => h?.close());

const as = async (email: string) =>
  clientFor(
    h.app,
    h.db,
    (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id,
  );

describe('documents demo data', () => {
  it('the manager sees the Policies library with two documents and who has acknowledged them', async () => {
    const manager = await as('manager@demo.test');
    const perms = (await manager('GET', '/api/auth/permissions')).json().data as (number | { id: number })[];
    const ids = perms.map((p) => (typeof p === 'number' ? p : p.id));
    for (const p of Object.values(P)) expect(ids, `permission ${p}`).toContain(p);
    const libraries = (await manager('GET', '/api/libraries')).json().data;
    expect(libraries).toEqual([
      expect.objectContaining({ name: DEMO_LIBRARY, document_count: 2, can: { manage: false } }),
    ]);
    const docs = (await manager('GET', `/api/libraries/${libraries[0].id}/documents`)).json().data;
    expect(docs.map((d: { title: string; version: number }) => [d.title, d.version])).toEqual([
      [DEMO_SAFEGUARDING, 2],
      [DEMO_WHISTLEBLOWING, 1],
    ]);
    const safeguarding = (await manager('GET', `/api/documents/${docs[0].id}`)).json().data;
    expect(safeguarding.current.change_note).toMatch(/telephone number/);
    expect(safeguarding.check_question.options).toHaveLength(3);
    expect(safeguarding.required_for).toEqual([
      expect.objectContaining({ role: expect.objectContaining({ name: 'Care Assistant' }), type: 'primary' }),
    ]);
    const file = await manager('GET', safeguarding.current.file_url);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('the learner must read the safeguarding policy; the whistleblowing one is acknowledged', async () => {
    const learner = await as('learner@demo.test');
    const mine = (await learner('GET', '/api/documents/mine')).json().data;
    expect(mine.map((d: { title: string; status: string }) => [d.title, d.status])).toEqual([
      [DEMO_SAFEGUARDING, 'to_read'],
      [DEMO_WHISTLEBLOWING, 'acknowledged'],
    ]);
  });
});

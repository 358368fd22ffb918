import { DesignerMessages as M, PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { samplePages } from './design-fixtures';

/** Saves and publishes of one design at once (issue 17) on PostgreSQL: the guarded update and the row lock decide. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function author() {
  const org = await buildEntity(h.db, { level: 'A' });
  const user = await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) });
  return clientFor(h.app, h.db, user.id);
}

describeRaces('designs saved and published in parallel', () => {
  it('two saves from the same revision: exactly one wins, the other is 409 and changes nothing', async () => {
    const as = await author();
    for (let round = 0; round < 5; round++) {
      const design = (await as('POST', '/api/designs', { title: 'Start' })).json().data;
      const answers = await parallel(2, (i) =>
        as('PATCH', `/api/designs/${design.id}`, { revision: 1, title: `Save ${i}` }),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409]);
      const lost = answers.find((r) => r.statusCode === 409);
      expect(lost?.json().message).toBe(M.staleRevision);
      const won = answers.find((r) => r.statusCode === 200)?.json().data;
      const stored = (await as('GET', `/api/designs/${design.id}`)).json().data;
      expect(stored).toMatchObject({ title: won.title, revision: 2 });
    }
  });

  it('publishing twice at once makes one content item, never two', async () => {
    const as = await author();
    const design = (await as('POST', '/api/designs', { title: 'Once', pages: samplePages() })).json().data;
    const answers = await parallel(4, () =>
      as('POST', `/api/designs/${design.id}/publish`, { new_course_title: 'Once course' }),
    );
    expect(answers.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    for (const r of answers) expect([200, 409]).toContain(r.statusCode);
    const contents = await h.db.selectFrom('contents').select('id').where('title', '=', 'Once').execute();
    expect(contents).toHaveLength(1);
  });
});

import { PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildContent } from '../../test/learning-factories';
import { describeRaces, parallel } from '../../test/parallel';

/** Quizzes attached to one content at once (issue 10 §3) on PostgreSQL: each gets its own position. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('quizzes attached in parallel', () => {
  it('10 quizzes attached to one content at once get positions 0..9', async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const author = await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) });
    const as = await clientFor(h.app, h.db, author.id);
    const content = await buildContent(h.db, org.id);
    const quizzes = await parallel(10, (i) =>
      h.db
        .insertInto('quizzes')
        .values({
          entity_id: org.id,
          title: `Quiz ${i}`,
          published: true,
          is_randomized: false,
          pass_mark: 80,
        })
        .returning('id')
        .executeTakeFirstOrThrow(),
    );
    const responses = await parallel(10, (i) =>
      as('POST', `/api/quizzes/${quizzes[i]?.id}/content/${content.id}`),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const rows = await h.db
      .selectFrom('content_quizzes')
      .select('position')
      .where('content_id', '=', content.id)
      .orderBy('position')
      .execute();
    expect(rows.map((r) => r.position)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

import { PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';

/** Concurrent writes of tags and their users (issue 10 §3) on PostgreSQL. */
let h: Harness;
let admin: Awaited<ReturnType<typeof clientFor>>;
let org: { id: number; slug: string };
beforeAll(async () => {
  h = await createHarness();
  org = await buildEntity(h.db, { level: 'A' });
  const user = await buildUser(h.db, { entityId: org.id, permissions: PERMISSIONS.map((p) => p.id) });
  admin = await clientFor(h.app, h.db, user.id);
});
afterAll(async () => h?.close());

const newTag = async (name: string) =>
  (await admin('POST', `/api/entities/${org.slug}/tags`, { name })).json().data.id as number;

describeRaces('tags changed in parallel', () => {
  it('10 parallel creates of one name: one tag, the others are told the name is taken', async () => {
    const responses = await parallel(10, () =>
      admin('POST', `/api/entities/${org.slug}/tags`, { name: 'Night shift' }),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([201, ...Array(9).fill(422)]);
  });

  it('10 parallel links of the same users in other orders all succeed and link each user once', async () => {
    const tag = await newTag('Bank staff');
    const users = await parallel(15, () => buildUser(h.db, { entityId: org.id }));
    const ids = users.map((u) => u.id);
    const responses = await parallel(10, (i) => {
      const rotated = [...ids.slice(i), ...ids.slice(0, i)];
      return admin('POST', `/api/tags/${tag}/users`, { users: i % 2 ? rotated.reverse() : rotated });
    });
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const linked = await h.db.selectFrom('tag_users').select('user_id').where('tag_id', '=', tag).execute();
    expect(linked).toHaveLength(15);
  });

  it('linking users to a tag deleted at the same moment answers 404, never 500', async () => {
    const users = await parallel(3, () => buildUser(h.db, { entityId: org.id }));
    for (let round = 0; round < 5; round++) {
      const tag = await newTag(`Gone ${round}`);
      const responses = await parallel(8, (i) =>
        i === 0
          ? admin('DELETE', `/api/tags/${tag}`)
          : admin('POST', `/api/tags/${tag}/users`, { users: users.map((u) => u.id) }),
      );
      expect(responses[0]?.statusCode).toBe(200);
      expect({
        round,
        codes: responses
          .slice(1)
          .filter((r) => r.statusCode !== 200 && r.statusCode !== 404)
          .map((r) => r.statusCode),
      }).toEqual({ round, codes: [] });
    }
  });
});

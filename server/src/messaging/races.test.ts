import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';

/** Concurrent reads, deletes and sends of messages (issue 14) on PostgreSQL. */
let h: Harness;
let site: { id: number; slug: string };
let manager: { id: number };
let m: Awaited<ReturnType<typeof clientFor>>;
beforeAll(async () => {
  h = await createHarness();
  site = await buildEntity(h.db, { level: 'A' });
  manager = await buildUser(h.db, { entityId: site.id, permissions: [39, 81, 94, 95, 96, 97] });
  m = await clientFor(h.app, h.db, manager.id);
});
afterAll(async () => h?.close());

async function messageTo(recipientId: number, text = 'Hello') {
  const res = await m('POST', `/api/users/${manager.id}/message`, { message: text, recipient: recipientId });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.id as number;
}

describeRaces('messages changed in parallel', () => {
  it('10 parallel "read" keep one first read time; mixed read/unread leave the count matching the row', async () => {
    const learner = await buildUser(h.db, { entityId: site.id });
    const l = await clientFor(h.app, h.db, learner.id);
    const id = await messageTo(learner.id);
    const url = `/api/users/${learner.id}/received/messages/${id}`;
    const reads = await parallel(10, () => l('PATCH', url, { read: true }));
    expect(reads.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    expect(new Set(reads.map((r) => r.json().data.read_at)).size).toBe(1);
    const mixed = await parallel(12, (i) => l('PATCH', url, { read: i % 2 === 0 }));
    expect(mixed.map((r) => r.statusCode)).toEqual(Array(12).fill(200));
    const row = await h.db
      .selectFrom('message_recipients')
      .select('read_at')
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    const list = await l('GET', `/api/users/${learner.id}/received/messages`);
    expect(list.json().unread_message_count).toBe(row.read_at === null ? 1 : 0);
  });

  it('10 parallel deletes of one copy: one 200, the rest 404; both sides deleting at once both succeed', async () => {
    const learner = await buildUser(h.db, { entityId: site.id });
    const l = await clientFor(h.app, h.db, learner.id);
    const id = await messageTo(learner.id);
    const deletes = await parallel(10, () => l('DELETE', `/api/users/${learner.id}/messages/${id}`));
    expect(deletes.map((r) => r.statusCode).sort()).toEqual([200, ...Array(9).fill(404)]);
    const other = await messageTo(learner.id, 'Both sides');
    const both = await parallel(6, (i) =>
      i % 2 === 0
        ? l('DELETE', `/api/users/${learner.id}/messages/${other}`)
        : m('DELETE', `/api/users/${manager.id}/messages/${other}`),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 200, 404, 404, 404, 404]);
    const row = await h.db
      .selectFrom('messages as msg')
      .innerJoin('message_recipients as mr', 'mr.message_id', 'msg.id')
      .select(['msg.sender_deleted_at', 'mr.deleted_at'])
      .where('msg.id', '=', other)
      .executeTakeFirstOrThrow();
    expect(row.sender_deleted_at).not.toBeNull();
    expect(row.deleted_at).not.toBeNull();
  });

  it('a tag message sent while 10 people are linked in one request reaches all of them or none', async () => {
    const before = await parallel(5, () => buildUser(h.db, { entityId: site.id }));
    const joining = await parallel(10, () => buildUser(h.db, { entityId: site.id }));
    for (let round = 0; round < 5; round++) {
      const tag = await m('POST', `/api/entities/${site.slug}/tags`, { name: `Night ${round}` });
      const tagId = tag.json().data.id as number;
      await m('POST', `/api/tags/${tagId}/users`, { users: before.map((u) => u.id) });
      const responses = await parallel(9, (i) =>
        i === 4
          ? m('POST', `/api/tags/${tagId}/users`, { users: joining.map((u) => u.id) })
          : m('POST', `/api/tags/${tagId}/message`, { message: `Round ${round} send ${i}` }),
      );
      expect(responses.map((r) => r.statusCode).filter((c) => c >= 300)).toEqual([]);
      const sends = responses.filter((_, i) => i !== 4).map((r) => r.json().data.id as number);
      const counts = await h.db
        .selectFrom('message_recipients')
        .select(['message_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where('message_id', 'in', sends)
        .groupBy('message_id')
        .execute();
      expect({ round, counts: counts.map((c) => Number(c.n)).filter((n) => n !== 5 && n !== 15) }).toEqual({
        round,
        counts: [],
      });
      expect(counts).toHaveLength(sends.length);
    }
  });
});

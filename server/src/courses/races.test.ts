import { PERMISSIONS } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';

/** Concurrent changes of an entity's course assignments (issue 10 §3) on PostgreSQL. */
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

describeRaces('course assignments changed in parallel', () => {
  it('10 parallel updateMultiple calls naming the same courses in other orders all succeed', async () => {
    const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
    const courses = await parallel(20, () => buildCourse(h.db, org.id, { published: true }));
    const url = `/api/entities/${site.slug}/courses`;
    const responses = await parallel(10, (i) => {
      // Rotated and reversed: each call writes the rows in another order.
      const items = courses.map((c, k) => ({ course_id: c.id, enabled: (k + i) % 2 === 0 }));
      const rotated = [...items.slice(i * 2), ...items.slice(0, i * 2)];
      return admin('PATCH', `${url}/updateMultiple`, { items: i % 2 ? rotated.reverse() : rotated });
    });
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const rows = await h.db
      .selectFrom('entity_courses')
      .select('course_id')
      .where('entity_id', '=', site.id)
      .execute();
    expect(rows).toHaveLength(20);
  });

  it('a PATCH racing a DELETE of the same assignment does not bring the deleted row back', async () => {
    const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
    const course = await buildCourse(h.db, org.id, { published: true });
    const url = `/api/entities/${site.slug}/courses`;
    // Several rounds: which request wins varies from run to run.
    for (let round = 0; round < 5; round++) {
      expect((await admin('POST', url, { course_id: course.id })).statusCode).toBe(201);
      const responses = await parallel(11, (i) =>
        i === 5
          ? admin('DELETE', `${url}/${course.id}`)
          : admin('PATCH', `${url}/${course.id}`, { enabled: false }),
      );
      expect(responses[5]?.statusCode).toBe(200);
      // Every PATCH either came first (200) or found the row gone (404).
      expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 404)).toBe(true);
      const row = await h.db
        .selectFrom('entity_courses')
        .selectAll()
        .where('entity_id', '=', site.id)
        .where('course_id', '=', course.id)
        .executeTakeFirst();
      expect({ round, row }).toEqual({ round, row: undefined });
    }
  });
});

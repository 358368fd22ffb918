import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { as, certificateWorld, criteriaOf, PDF, upload, versionId } from './certificate-fixtures';

/** Read-then-write paths of the core part under concurrency (PostgreSQL only: PGlite cannot race). */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

describeRaces('care certificate races', () => {
  it('parallel default swaps leave exactly one default version', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    const c = await as(h, admin.id);
    const ids: number[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await c('POST', '/api/care-certificate-versions', {
        code: `R${Date.now() % 10000}${i}`,
        title: 'Race',
      });
      ids.push(res.json().data.id);
    }
    const results = await parallel(ids.length, (i) =>
      c('PATCH', `/api/care-certificate-versions/${ids[i]}`, { is_default: true }),
    );
    expect(results.map((r) => r.statusCode)).toEqual(ids.map(() => 200));
    const defaults = await h.db
      .selectFrom('care_certificate_versions')
      .select('id')
      .where('is_default', '=', true)
      .execute();
    expect(defaults).toHaveLength(1);
    await c('PATCH', `/api/care-certificate-versions/${await versionId(h.db, '2025')}`, { is_default: true });
  });

  it('a standard added while people are assigned reaches every certificate of the version', async () => {
    const w = await certificateWorld(h);
    const admin = await as(h, w.admin.id);
    const version = (
      await admin('POST', '/api/care-certificate-versions', {
        code: `S${Date.now() % 100000}`,
        title: 'Race',
        copy_from_id: await versionId(h.db, '2025'),
      })
    ).json().data;
    const people = await Promise.all(
      Array.from({ length: 6 }, () => buildUser(h.db, { entityId: w.home.id })),
    );
    const manager = await as(h, w.manager.id);
    const calls = await parallel(people.length + 1, (i) =>
      i === people.length
        ? admin('POST', `/api/care-certificate-versions/${version.id}/standards`, {
            number: 40,
            title: 'Late',
          })
        : manager('POST', '/api/care-certificates', { user_id: people[i].id, version_id: version.id }),
    );
    expect(calls.map((r) => r.statusCode).sort()).toEqual([...people.map(() => 201), 201]);
    const { rows } = await sql<{ n: number }>`SELECT count(*)::int AS n FROM care_certificates c
        WHERE c.version_id = ${version.id} AND (SELECT count(*) FROM care_certificate_standard_states t
          WHERE t.certificate_id = c.id) <> 17`.execute(h.db);
    expect(rows[0].n).toBe(0);
  });

  it('evidence added while the certificate is withdrawn: either the evidence lands and the withdrawal is refused, or neither', async () => {
    const w = await certificateWorld(h);
    const v = await versionId(h.db, '2015');
    const [k] = (await criteriaOf(h.db, v, 1)).filter((x) => !x.requires_observation);
    for (let round = 0; round < 3; round++) {
      const person = await buildUser(h.db, { entityId: w.home.id });
      const manager = await as(h, w.manager.id);
      const uuid = (
        await manager('POST', '/api/care-certificates', { user_id: person.id, version_id: v })
      ).json().data.uuid;
      const [withdraw, added] = await Promise.all([
        manager('DELETE', `/api/care-certificates/${uuid}`),
        upload(h, person.id, `/api/care-certificates/${uuid}/evidence`, [['criterion_ids', `[${k.id}]`]], {
          filename: 'a.pdf',
          bytes: PDF,
        }),
      ]);
      if (withdraw.statusCode === 200) expect(added.statusCode).toBe(404);
      else {
        expect(withdraw.statusCode).toBe(409);
        expect(added.statusCode).toBe(201);
      }
    }
  });

  it('parallel replacements of a course’s criteria leave one of the sets whole', async () => {
    const w = await certificateWorld(h);
    const course = await buildCourse(h.db, w.group.id);
    const creator = await buildUser(h.db, { entityId: w.group.id, permissions: [63] });
    const c = await as(h, creator.id);
    const all = await criteriaOf(h.db, await versionId(h.db, '2015'), 3);
    const sets = [all.slice(0, 3), all.slice(2, 6), all.slice(4, 8)].map((s) => s.map((k) => k.id));
    const results = await parallel(sets.length, (i) =>
      c('PUT', `/api/courses/${course.id}/care-certificate-criteria`, { criterion_ids: sets[i] }),
    );
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const now = (await c('GET', `/api/courses/${course.id}/care-certificate-criteria`))
      .json()
      .data.criteria.map((x: { id: number }) => x.id)
      .sort();
    expect(sets.map((s) => [...s].sort())).toContainEqual(now);
  });
});

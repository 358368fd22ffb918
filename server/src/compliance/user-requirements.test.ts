import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { recordResult } from '../results/service';

/**
 * user_requirements (migrations 009, 011) is users ⋈ effective_compliance_rules, kept by triggers: after every kind of
 * write that can change it, the table must equal the view join (the naive computation), row for row.
 */

let h: Harness;
let manager: Awaited<ReturnType<typeof clientFor>>;
let org: { id: number; slug: string };
let site: { id: number; slug: string };
let site2: { id: number };
let roleA: number;
let roleB: number;
let fire: number;
let food: number;
let carer: number;
let siteCarer: number;

type Row = {
  user_id: number;
  course_id: number;
  entity_id: number;
  role_id: number;
  type: string;
  passed: boolean | null;
  expires_at: Date | null;
  exempt: boolean;
};
const key = (r: Row) =>
  `${r.user_id}:${r.course_id}:${r.entity_id}:${r.role_id}:${r.type}:${r.passed}:${r.expires_at?.toISOString()}:${r.exempt}`;

async function stored() {
  const rows = await h.db.selectFrom('user_requirements').selectAll().execute();
  return rows.map(key).sort();
}
async function naive() {
  const { rows } = await sql<Row>`SELECT u.id AS user_id, ecr.course_id, u.primary_entity_id AS entity_id,
      u.role_id, ecr.type, lr.passed, lr.expires_at, coalesce(lr.type = 'exempt', false) AS exempt FROM users u JOIN effective_compliance_rules ecr
      ON ecr.entity_id = u.primary_entity_id AND ecr.role_id = u.role_id
      LEFT JOIN latest_results lr ON lr.user_id = u.id AND lr.course_id = ecr.course_id`.execute(h.db);
  return rows.map(key).sort();
}
async function typeOf(userId: number, courseId: number) {
  const row = await h.db
    .selectFrom('user_requirements')
    .select('type')
    .where('user_id', '=', userId)
    .where('course_id', '=', courseId)
    .executeTakeFirst();
  return row?.type ?? null;
}
async function expectConsistent() {
  expect(await stored()).toEqual(await naive());
}

beforeAll(async () => {
  h = await createHarness();
  const o = await buildEntity(h.db, { level: 'A' });
  const s = await buildEntity(h.db, { level: 'B', parentId: o.id });
  site2 = { id: (await buildEntity(h.db, { level: 'B', parentId: o.id })).id };
  org = { id: o.id, slug: o.slug };
  site = { id: s.id, slug: s.slug };
  roleA = (await buildRole(h.db, o.id, { name: 'Carer' })).id;
  roleB = (await buildRole(h.db, o.id, { name: 'Nurse' })).id;
  fire = (await buildCourse(h.db, o.id, { title: 'Fire safety' })).id;
  food = (await buildCourse(h.db, o.id, { title: 'Food hygiene' })).id;
  const m = await buildUser(h.db, { entityId: o.id, permissions: [68, 49, 43, 24, 40] });
  manager = await clientFor(h.app, h.db, m.id);
  carer = (await buildUser(h.db, { entityId: o.id, roleId: roleA })).id;
  siteCarer = (await buildUser(h.db, { entityId: s.id, roleId: roleA })).id;
});
afterAll(async () => h?.close());

describe('user_requirements kept on every write', () => {
  let groupRule: number;
  let siteRule: number;

  it('a rule created at the group applies to its users and its sites’ users (POST /compliance)', async () => {
    const res = await manager('POST', '/api/compliance', {
      entity: org.slug,
      roleId: roleA,
      courseId: fire,
      type: 'primary',
      validity: 12,
    });
    expect(res.statusCode).toBe(201);
    groupRule = res.json().data.id;
    expect(await typeOf(carer, fire)).toBe('primary');
    expect(await typeOf(siteCarer, fire)).toBe('primary');
    await expectConsistent();
  });

  it('a site override replaces the inherited rule for the site’s users only', async () => {
    const res = await manager('POST', '/api/compliance', {
      entity: site.slug,
      roleId: roleA,
      courseId: fire,
      type: 'secondary',
      validity: 24,
    });
    expect(res.statusCode).toBe(201);
    siteRule = res.json().data.id;
    expect(await typeOf(siteCarer, fire)).toBe('secondary');
    expect(await typeOf(carer, fire)).toBe('primary');
    await expectConsistent();
  });

  it('a rule updated (PATCH /compliance/{id}) changes the type of its users', async () => {
    const res = await manager('PATCH', `/api/compliance/${groupRule}`, { type: 'secondary' });
    expect(res.statusCode).toBe(200);
    expect(await typeOf(carer, fire)).toBe('secondary');
    await manager('PATCH', `/api/compliance/${groupRule}`, { type: 'primary' });
    expect(await typeOf(carer, fire)).toBe('primary');
    await expectConsistent();
  });

  it('deleting the override brings the inherited rule back (DELETE /compliance/{id})', async () => {
    const res = await manager('DELETE', `/api/compliance/${siteRule}`);
    expect(res.statusCode).toBeLessThan(300);
    expect(await typeOf(siteCarer, fire)).toBe('primary');
    await expectConsistent();
  });

  it('a recorded, re-dated or deleted result updates the cell’s passed / expires_at', async () => {
    const record = (passed: boolean, completedAt: Date) =>
      h.db.transaction().execute((trx) =>
        recordResult(trx, {
          userId: siteCarer,
          entityId: site.id,
          courseId: fire,
          contentId: null,
          type: 'historical',
          passed,
          score: null,
          completedAt,
          attemptId: null,
          createdBy: null,
        }),
      );
    await record(false, new Date('2026-01-01T00:00:00Z'));
    await expectConsistent();
    await record(true, new Date('2026-02-01T00:00:00Z'));
    const cell = await h.db
      .selectFrom('user_requirements')
      .select(['passed', 'expires_at'])
      .where('user_id', '=', siteCarer)
      .where('course_id', '=', fire)
      .executeTakeFirstOrThrow();
    expect(cell.passed).toBe(true);
    expect(cell.expires_at?.toISOString()).toBe('2027-02-01T00:00:00.000Z');
    await expectConsistent();
    // Re-dated by a rule change (update_previous_results), then removed.
    await manager('PATCH', `/api/compliance/${groupRule}`, { validity: 24, update_previous_results: true });
    await expectConsistent();
    await h.db.deleteFrom('latest_results').where('user_id', '=', siteCarer).execute();
    await expectConsistent();
  });

  it('an exemption sets the cell’s exempt flag and lifting it clears the flag (migration 011)', async () => {
    const exemptOf = async () =>
      (
        await h.db
          .selectFrom('user_requirements')
          .select('exempt')
          .where('user_id', '=', carer)
          .where('course_id', '=', fire)
          .executeTakeFirstOrThrow()
      ).exempt;
    const exempt = (on: boolean) =>
      manager('PATCH', `/api/users/${carer}/compliance-courses/${fire}`, {
        exempt: on,
        notes: on ? 'Works nights only' : undefined,
      });
    expect((await exempt(true)).statusCode).toBe(200);
    expect(await exemptOf()).toBe(true);
    await expectConsistent();
    expect((await exempt(false)).statusCode).toBe(200);
    expect(await exemptOf()).toBe(false);
    await expectConsistent();
  });

  it('a new user gets the requirements of their role and entity', async () => {
    const u = await buildUser(h.db, { entityId: site2.id, roleId: roleA });
    expect(await typeOf(u.id, fire)).toBe('primary');
    await expectConsistent();
  });

  it('a user’s role change and move to another entity recompute their rows', async () => {
    await h.db
      .insertInto('compliance_rules')
      .values({
        entity_id: org.id,
        role_id: roleB,
        course_id: food,
        type: 'secondary',
        validity_months: null,
      } as never)
      .execute();
    await h.db.updateTable('users').set({ role_id: roleB }).where('id', '=', carer).execute();
    expect(await typeOf(carer, fire)).toBeNull();
    expect(await typeOf(carer, food)).toBe('secondary');
    await h.db.updateTable('users').set({ primary_entity_id: site.id }).where('id', '=', carer).execute();
    expect(await typeOf(carer, food)).toBe('secondary');
    await h.db.updateTable('users').set({ role_id: null }).where('id', '=', carer).execute();
    expect(await typeOf(carer, food)).toBeNull();
    await expectConsistent();
  });

  it('an entity moved to another parent takes the new parent’s rules', async () => {
    const other = await buildEntity(h.db, { level: 'A' });
    await h.db.updateTable('entities').set({ parent_id: other.id }).where('id', '=', site2.id).execute();
    await expectConsistent();
    await h.db.updateTable('entities').set({ parent_id: org.id }).where('id', '=', site2.id).execute();
    await expectConsistent();
  });

  it('a deleted role, course or user takes its rows with it', async () => {
    const role = (await buildRole(h.db, org.id)).id;
    const course = (await buildCourse(h.db, org.id)).id;
    const u = (await buildUser(h.db, { entityId: site.id, roleId: role })).id;
    await h.db
      .insertInto('compliance_rules')
      .values([
        { entity_id: org.id, role_id: role, course_id: course, type: 'primary', validity_months: 12 },
        { entity_id: org.id, role_id: roleA, course_id: course, type: 'primary', validity_months: 12 },
      ] as never)
      .execute();
    expect(await typeOf(u, course)).toBe('primary');
    await h.db.deleteFrom('courses').where('id', '=', course).execute();
    expect(await typeOf(u, course)).toBeNull();
    await expectConsistent();
    await h.db.deleteFrom('entity_roles').where('id', '=', role).execute();
    await expectConsistent();
    await h.db.deleteFrom('users').where('id', '=', u).execute();
    await expectConsistent();
  });
});

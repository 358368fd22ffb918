import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';
import { recordResult } from '../results/service';

/**
 * Concurrent changes of compliance rows (issue 10 §3) on PostgreSQL: PATCH /compliance/{id} reads the row it changes
 * under its lock (compliance/service.ts updateCompliance), so the row and the dates of its results agree.
 */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** An organisation with a site, a role, a course on a 12-month rule and `learners` carers who passed it. */
async function world(learners: number) {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
  const role = await buildRole(h.db, org.id);
  const course = await buildCourse(h.db, org.id, { published: true });
  const manager = await buildUser(h.db, { entityId: org.id, permissions: [68, 49, 43, 24, 40] });
  const siteManager = await buildUser(h.db, { entityId: site.id, permissions: [68, 49, 40] });
  const as = await clientFor(h.app, h.db, manager.id);
  const created = await as('POST', '/api/compliance', {
    entity: org.slug,
    roleId: role.id,
    courseId: course.id,
    type: 'primary',
    validity: 12,
  });
  expect(created.statusCode, created.body).toBe(201);
  for (let i = 0; i < learners; i++) {
    const entityId = i % 2 ? site.id : org.id;
    const carer = await buildUser(h.db, { entityId, roleId: role.id, startDate: '2020-01-01' });
    await h.db.transaction().execute((trx) =>
      recordResult(trx, {
        userId: carer.id,
        entityId,
        courseId: course.id,
        contentId: null,
        type: 'historical',
        passed: true,
        score: null,
        completedAt: new Date(Date.UTC(2025, i % 12, 10)),
        attemptId: null,
        createdBy: null,
      }),
    );
  }
  return {
    org,
    site,
    course,
    roleId: role.id,
    ruleId: created.json().data.id as number,
    as,
    siteAs: await clientFor(h.app, h.db, siteManager.id),
  };
}

/** Months between each passed result's completion and its expiry, from results and from latest_results. */
async function validityOfResults(courseId: number) {
  const rows = await h.db
    .selectFrom('results as r')
    .innerJoin('latest_results as lr', 'lr.result_id', 'r.id')
    .select(['r.completed_at', 'r.expires_at', 'lr.expires_at as latest_expires_at'])
    .where('r.course_id', '=', courseId)
    .execute();
  const months = (from: Date | string, to: Date | string | null) => {
    if (to === null) return null;
    const a = new Date(from);
    const b = new Date(to);
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth();
  };
  return rows.flatMap((r) => [
    months(r.completed_at, r.expires_at),
    months(r.completed_at, r.latest_expires_at),
  ]);
}

describeRaces('compliance rows changed in parallel', () => {
  it('rounds of 20 parallel PATCHes (12 and 24 months, re-dating results) leave the row and its results on one validity', async () => {
    const w = await world(6);
    // Which request commits last varies from run to run: four rounds, each from a row at 12 months.
    for (let round = 0; round < 4; round++) {
      const reset = await w.as('PATCH', `/api/compliance/${w.ruleId}`, {
        validity: 12,
        update_previous_results: true,
      });
      expect(reset.statusCode).toBe(200);
      const responses = await parallel(20, (i) =>
        w.as('PATCH', `/api/compliance/${w.ruleId}`, {
          validity: i % 4 === 0 ? 24 : 12,
          update_previous_results: true,
        }),
      );
      expect(responses.map((r) => r.statusCode)).toEqual(Array(20).fill(200));
      const rule = await h.db
        .selectFrom('compliance_rules')
        .select('validity_months')
        .where('id', '=', w.ruleId)
        .executeTakeFirstOrThrow();
      const validities = await validityOfResults(w.course.id);
      expect(validities).toHaveLength(12);
      expect({
        round,
        rule: rule.validity_months,
        wrong: validities.filter((v) => v !== rule.validity_months),
      }).toEqual({
        round,
        rule: rule.validity_months,
        wrong: [],
      });
    }
  });

  it('10 parallel first edits of an inherited row from a site create one override, not errors', async () => {
    const w = await world(4);
    const responses = await parallel(10, (i) =>
      w.siteAs('PATCH', `/api/compliance/${w.ruleId}`, {
        entity: w.site.slug,
        validity: 36 + (i % 2) * 12,
        update_previous_results: true,
      }),
    );
    expect(responses.map((r) => r.statusCode).sort()).toEqual([
      200, 200, 200, 200, 200, 200, 200, 200, 200, 201,
    ]);
    const overrides = await h.db
      .selectFrom('compliance_rules')
      .select(['id', 'validity_months'])
      .where('entity_id', '=', w.site.id)
      .execute();
    expect(overrides).toHaveLength(1);
    // The site's carers follow the override, the organisation's the 12-month row.
    const siteResults = await h.db
      .selectFrom('results')
      .select(['completed_at', 'expires_at'])
      .where('course_id', '=', w.course.id)
      .where('entity_id', '=', w.site.id)
      .execute();
    for (const r of siteResults) {
      const expected = new Date(r.completed_at);
      expected.setUTCMonth(expected.getUTCMonth() + (overrides[0]?.validity_months ?? 0));
      expect(new Date(r.expires_at as Date).toISOString()).toBe(expected.toISOString());
    }
  });

  it('10 parallel “exempt” switches of one learner’s course record one exemption', async () => {
    const w = await world(0);
    const carer = await buildUser(h.db, { entityId: w.org.id, roleId: w.roleId, startDate: '2020-01-01' });
    const responses = await parallel(10, () =>
      w.as('PATCH', `/api/users/${carer.id}/compliance-courses/${w.course.id}`, {
        exempt: true,
        notes: 'Works nights only',
      }),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(10).fill(200));
    const exemptions = await h.db
      .selectFrom('results')
      .select('id')
      .where('user_id', '=', carer.id)
      .where('type', '=', 'exempt')
      .where('deleted_at', 'is', null)
      .execute();
    expect(exemptions).toHaveLength(1);
  });
});

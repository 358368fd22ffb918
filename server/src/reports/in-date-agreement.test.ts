import { compliantSummary } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { clearScores, settleScore } from '../compliance/scores-cache';
import { recordResult } from '../results/service';

/**
 * Issue 13 item 8: the start-page widget (GET /entities/{id}/score/{type}?deep=1) and the compliance report
 * (POST /reports/compliance) count "compliant" the same way for the same organisation: in date + expiring soon +
 * exempt, and both say so with compliantSummary.
 */
const NOW = new Date();
const DAY = 86_400_000;
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
});
afterAll(async () => h?.close());

async function rule(entityId: number, roleId: number, courseId: number, months: number | null) {
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: entityId,
      role_id: roleId,
      course_id: courseId,
      type: 'primary',
      validity_months: months,
    })
    .execute();
}
async function result(
  userId: number,
  entityId: number,
  courseId: number,
  daysAgo: number,
  type: 'elearning' | 'exempt' = 'elearning',
) {
  await h.db.transaction().execute((trx) =>
    recordResult(
      trx,
      {
        userId,
        entityId,
        courseId,
        contentId: null,
        type,
        passed: true,
        score: 90,
        completedAt: new Date(NOW.getTime() - daysAgo * DAY),
        attemptId: null,
        createdBy: null,
      },
      NOW,
    ),
  );
}

describe('"compliant" on the start-page widget and the compliance report', () => {
  it('gives the same counts for the same organisation, with every status present', async () => {
    const org = await buildEntity(h.db, { level: 'A', settings: { expiry_warning: 30 } });
    const site = await buildEntity(h.db, { level: 'B', parentId: org.id });
    const carer = await buildRole(h.db, org.id, { name: 'Carer' });
    const courses = await Promise.all(
      ['Fire', 'Food', 'Moving', 'Meds'].map((title) => buildCourse(h.db, org.id, { title })),
    );
    for (const c of courses) await rule(org.id, carer.id, c.id, 12);
    const [fire, food, moving, meds] = courses as [
      (typeof courses)[0],
      (typeof courses)[0],
      (typeof courses)[0],
      (typeof courses)[0],
    ];
    const people = await Promise.all(
      [1, 2, 3].map((n) => buildUser(h.db, { entityId: site.id, roleId: carer.id, name: `Carer ${n}` })),
    );
    const [p1, p2, p3] = people as [(typeof people)[0], (typeof people)[0], (typeof people)[0]];
    await result(p1.id, site.id, fire.id, 10); // in date
    await result(p1.id, site.id, food.id, 350); // expiring soon
    await result(p1.id, site.id, moving.id, 400); // expired
    await result(p2.id, site.id, fire.id, 5, 'exempt'); // exempt
    await result(p2.id, site.id, food.id, 20); // in date
    await result(p3.id, site.id, meds.id, 340); // expiring soon
    // the rest: not done

    const manager = await buildUser(h.db, { entityId: org.id, permissions: [12, 13, 14, 15, 40, 79] });
    const headers = await bearer(h.db, manager.id);
    const report = await h.app.inject({
      method: 'POST',
      url: '/api/reports/compliance',
      headers,
      payload: { compliance_type: 'primary', new_starters_filter: 'include_new_starters' },
    });
    expect(report.statusCode, report.body).toBe(200);
    const totals = report.json().data.totals;

    clearScores();
    const url = `/api/entities/${org.id}/score/primary?deep=1`;
    let widget = await h.app.inject({ method: 'GET', url, headers });
    if (widget.statusCode === 202) {
      await settleScore(`${org.id}:primary:deep:include`);
      widget = await h.app.inject({ method: 'GET', url, headers });
    }
    expect(widget.statusCode, widget.body).toBe(200);
    const score = widget.json().data;

    expect(totals).toMatchObject({
      required: 12,
      in_date: 2,
      expiring: 2,
      exempt: 1,
      expired: 1,
      missing: 6,
    });
    for (const key of ['required', 'in_date', 'expiring', 'exempt', 'expired', 'missing'] as const)
      expect(score[key], key).toBe(totals[key]);
    expect(compliantSummary(score)).toEqual(compliantSummary(totals));
    expect(compliantSummary(totals).text).toBe('5 of 12 compliant (in date 2, expiring soon 2, exempt 1)');
    expect(score.score).toBe(totals.score);
  });
});

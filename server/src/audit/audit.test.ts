import { type AuditEntryView, calendarDay, describeAuditEntry, ResultsMessages } from '@cc/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { bearer, buildEntity, buildRole, buildType, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import type { Ctx } from '../http/context';
import { runDueJobs } from '../jobs/queue';
import { recordAudit } from './record';

/**
 * The audit trail (issue 35 §3): every audited change writes one entry, with who, acting as whom, from where and the
 * values before and after, in the change's transaction (a refused change writes none); the trail is read per person,
 * per result and per organisation within the caller's scope (404 outside it), paginated and filtered, and the table
 * refuses UPDATE and DELETE.
 */
let h: Harness;
type Call = Awaited<ReturnType<typeof clientFor>>;

beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** A group with a home, a carer of the home with a role, a course, a group manager (acting as the home) and an outsider. */
async function world() {
  const group = await buildEntity(h.db, { level: 'A' });
  const home = await buildEntity(h.db, { parentId: group.id, name: `Rose House ${group.slug}` });
  const role = await buildRole(h.db, group.id, { name: 'Care Worker' });
  const course = await buildCourse(h.db, group.id, { title: `Fire Safety ${group.slug}`, published: true });
  const carer = await buildUser(h.db, {
    entityId: home.id,
    roleId: role.id,
    name: `Alex Carer ${group.slug}`,
  });
  const m = await buildUser(h.db, {
    entityId: group.id,
    name: `Sam Manager ${group.slug}`,
    permissions: [2, 4, 5, 18, 19, 24, 25, 26, 43, 46, 51, 68, 85],
  });
  const manager: Call = await clientFor(h.app, h.db, m.id);
  const outsiderUser = await buildUser(h.db, { permissions: [24, 25, 26, 85] });
  const outsider: Call = await clientFor(h.app, h.db, outsiderUser.id);
  return { group, home, role, course, carer, m, manager, outsider };
}

async function entries(where: { kind?: string; subjectId?: number; userId?: number; entityId?: number }) {
  let q = h.db.selectFrom('audit_entries').selectAll().orderBy('id');
  if (where.kind) q = q.where('subject_kind', '=', where.kind);
  if (where.subjectId !== undefined) q = q.where('subject_id', '=', where.subjectId);
  if (where.userId !== undefined) q = q.where('subject_user_id', '=', where.userId);
  if (where.entityId !== undefined) q = q.where('subject_entity_id', '=', where.entityId);
  return q.execute();
}

const count = async () =>
  Number(
    (
      await h.db
        .selectFrom('audit_entries')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('results and exemptions', () => {
  it('record, edit, approve and delete each write one entry with before and after, who, acting as whom and from where', async () => {
    const w = await world();
    const asHome = `?actingAs=${w.home.slug}`;
    const created = await w.manager('POST', `/api/results/historical/create${asHome}`, {
      user_id: w.carer.id,
      course_id: w.course.id,
      passed: true,
      completed_at: '2026-03-12',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;
    let rows = await entries({ kind: 'result', subjectId: id });
    expect(rows).toHaveLength(1);
    const [recorded] = rows;
    expect(recorded).toMatchObject({
      action: 'created',
      actor_user_id: w.m.id,
      actor_name: w.m.name,
      acting_as_entity_id: w.home.id,
      acting_as_name: w.home.name,
      subject_entity_id: w.home.id,
      subject_user_id: w.carer.id,
      before: null,
    });
    expect(recorded?.ip).toBeTruthy();
    expect(recorded?.after).toMatchObject({
      passed: true,
      course_id: w.course.id,
      course_label: w.course.title,
    });

    const edited = await w.manager('PATCH', `/api/results/historical/${id}`, { passed: false, score: 40 });
    expect(edited.statusCode, edited.body).toBe(200);
    rows = await entries({ kind: 'result', subjectId: id });
    expect(rows).toHaveLength(2);
    expect(rows[1]).toMatchObject({ action: 'updated', acting_as_entity_id: null });
    expect(rows[1]?.before).toMatchObject({ passed: true, score: null });
    expect(rows[1]?.after).toMatchObject({ passed: false, score: 40 });

    expect((await w.manager('DELETE', `/api/results/${id}`)).statusCode).toBe(200);
    rows = await entries({ kind: 'result', subjectId: id });
    expect(rows).toHaveLength(3);
    expect(rows[2]).toMatchObject({ action: 'deleted', after: null });
    expect(rows[2]?.before).toMatchObject({ passed: false, deleted_at: null });

    // A learner's own record waits for approval; its approval is an entry of its own.
    const self = await clientFor(h.app, h.db, w.carer.id);
    const pending = await self('POST', '/api/results/historical/create', {
      user_id: w.carer.id,
      course_id: w.course.id,
      passed: true,
      completed_at: '2026-01-05',
    });
    expect(pending.statusCode, pending.body).toBe(201);
    const pid = pending.json().data.id as number;
    expect((await w.manager('POST', `/api/results/pending/${pid}/approve`)).statusCode).toBe(200);
    rows = await entries({ kind: 'result', subjectId: pid });
    expect(rows.map((r) => [r.action, r.actor_user_id])).toEqual([
      ['created', w.carer.id],
      ['approved', w.m.id],
    ]);
    expect(rows[1]?.before).toMatchObject({ status: 'pending' });
    expect(rows[1]?.after).toMatchObject({ status: 'approved' });
  });

  it('exemptions: create, edit and delete', async () => {
    const w = await world();
    const made = await w.manager('POST', '/api/results/exempt', {
      user_id: w.carer.id,
      course_id: w.course.id,
      notes: 'Agency nurse, trained elsewhere',
    });
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.id as number;
    expect(
      (await w.manager('PATCH', `/api/results/exempt/${id}`, { notes: 'Trained at the hospital' }))
        .statusCode,
    ).toBe(200);
    expect((await w.manager('DELETE', `/api/results/exempt/${id}`)).statusCode).toBe(200);
    const rows = await entries({ kind: 'exemption', subjectId: id });
    expect(rows.map((r) => r.action)).toEqual(['created', 'updated', 'deleted']);
    expect(rows[1]?.before).toMatchObject({ notes: 'Agency nurse, trained elsewhere' });
    expect(rows[1]?.after).toMatchObject({ notes: 'Trained at the hospital' });
  });

  it('a refused change (422) writes no entry, and an entry rolls back with its transaction', async () => {
    const w = await world();
    const before = await count();
    const refused = await w.manager('POST', '/api/results/historical/create', {
      user_id: w.carer.id,
      course_id: w.course.id,
      passed: true,
      completed_at: '2999-01-01',
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.completed_at).toEqual([ResultsMessages.completedInFuture]);
    const badRole = await w.manager('PATCH', `/api/users/${w.carer.uuid}`, { role_id: 999_999_999 });
    expect(badRole.statusCode).toBe(422);
    expect(await count()).toBe(before);

    // The entry is written with the change's transaction: when the change fails after it, neither stays.
    const ctx = { actor: null, ip: '10.0.0.1', clock: () => new Date() } as unknown as Ctx;
    await expect(
      h.db.transaction().execute(async (trx) => {
        await recordAudit(trx, ctx, {
          action: 'updated',
          kind: 'entity',
          subjectId: w.home.id,
          entityId: w.home.id,
        });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await count()).toBe(before);
  });
});

describe('requirements, people, organisations, types and permissions', () => {
  it('a compliance row created, changed and deleted; a role moved; a setting changed; type permissions granted', async () => {
    const w = await world();
    const rule = await w.manager('POST', '/api/compliance', {
      entity: w.group.slug,
      roleId: w.role.id,
      courseId: w.course.id,
      type: 'primary',
      validity: 12,
    });
    expect(rule.statusCode, rule.body).toBe(201);
    const ruleId = rule.json().data.id as number;
    const changed = await w.manager('PATCH', `/api/compliance/${ruleId}`, {
      validity: 24,
      update_previous_results: false,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await w.manager('DELETE', `/api/compliance/${ruleId}`)).statusCode).toBe(200);
    const rules = await entries({ kind: 'compliance_rule', subjectId: ruleId });
    expect(rules.map((r) => r.action)).toEqual(['created', 'updated', 'deleted']);
    expect(rules[1]?.before).toMatchObject({ validity_months: 12, role_label: 'Care Worker' });
    expect(rules[1]?.after).toMatchObject({ validity_months: 24 });

    const senior = await buildRole(h.db, w.group.id, { name: 'Senior Carer' });
    const moved = await w.manager('PATCH', `/api/users/${w.carer.uuid}`, { role_id: senior.id });
    expect(moved.statusCode, moved.body).toBe(200);
    const people = await entries({ kind: 'user', subjectId: w.carer.id });
    expect(people).toHaveLength(1);
    expect(people[0]?.before).toMatchObject({ role_id: w.role.id, role_label: 'Care Worker' });
    expect(people[0]?.after).toMatchObject({ role_id: senior.id, role_label: 'Senior Carer' });
    // Preferences alone are not an audited change.
    await w.manager('PATCH', `/api/users/${w.carer.uuid}`, { user_preferences: { theme: 'dark' } });
    expect(await entries({ kind: 'user', subjectId: w.carer.id })).toHaveLength(1);

    const setting = await w.manager('PATCH', `/api/entities/${w.home.id}`, { expiry_warning: 45 });
    expect(setting.statusCode, setting.body).toBe(200);
    const orgs = await entries({ kind: 'entity', subjectId: w.home.id });
    expect(orgs).toHaveLength(1);
    expect(orgs[0]?.after).toEqual({ id: w.home.id, expiry_warning: 45 });
    expect(Object.keys(orgs[0]?.before ?? {})).toEqual(['id', 'expiry_warning']);

    const type = await buildType(h.db, w.home.id, { name: 'Team leader', permissions: [24] });
    const granted = await w.manager('POST', `/api/type-permissions/${type.id}`, { permission_ids: [25] });
    expect(granted.statusCode, granted.body).toBe(200);
    const types = await entries({ kind: 'type_permissions', subjectId: type.id });
    expect(types).toHaveLength(1);
    expect(types[0]?.before).toMatchObject({ permissions: [24] });
    expect(types[0]?.after).toMatchObject({ permissions: [24, 25] });
  });
});

describe('reading the trail', () => {
  it("a person's, a result's and an organisation's history; 404 for an outsider; paginated and filtered", async () => {
    const w = await world();
    const ids: number[] = [];
    for (const day of ['2026-01-02', '2026-01-03', '2026-01-04']) {
      const r = await w.manager('POST', '/api/results/historical/create', {
        user_id: w.carer.id,
        course_id: w.course.id,
        passed: true,
        completed_at: day,
      });
      expect(r.statusCode, r.body).toBe(201);
      ids.push(r.json().data.id);
    }
    expect((await w.manager('DELETE', `/api/results/${ids[0]}`)).statusCode).toBe(200);

    const person = await w.manager('GET', `/api/audit/users/${w.carer.uuid}?per_page=2`);
    expect(person.statusCode, person.body).toBe(200);
    expect(person.json().meta).toMatchObject({ total: 4, per_page: 2, last_page: 2 });
    const first = person.json().data[0] as AuditEntryView;
    expect(first).toMatchObject({ action: 'deleted', kind: 'result', actor: { id: w.m.id, name: w.m.name } });
    expect(describeAuditEntry(first)).toContain(
      `${w.m.name} deleted ${w.carer.name}'s pass for ${w.course.title} on `,
    );
    const page2 = await w.manager('GET', `/api/audit/users/${w.carer.uuid}?per_page=2&page=2`);
    expect(page2.json().data).toHaveLength(2);

    const result = await w.manager('GET', `/api/audit/results/${ids[0]}`);
    expect(result.statusCode).toBe(200);
    expect(result.json().data.map((e: AuditEntryView) => e.action)).toEqual(['deleted', 'created']);

    const home = await w.manager('GET', `/api/audit/entities/${w.home.slug}?kind=result&action=created`);
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json().meta.total).toBe(3);
    const group = await w.manager('GET', `/api/audit/entities/${w.group.id}?per_page=1`);
    expect(group.json().meta.total).toBe(4);
    expect((await w.manager('GET', `/api/audit/entities/${w.group.id}?deep=0`)).json().meta.total).toBe(0);
    // from/to are UK days: from 23:00 UTC in summer time the UTC date is yesterday there.
    const today = calendarDay(new Date());
    const inRange = await w.manager('GET', `/api/audit/entities/${w.home.id}?from=${today}&to=${today}`);
    expect(inRange.json().meta.total).toBe(4);
    const past = await w.manager('GET', `/api/audit/entities/${w.home.id}?from=2020-01-01&to=2020-12-31`);
    expect(past.json().meta.total).toBe(0);
    const bad = await w.manager('GET', `/api/audit/entities/${w.home.id}?from=yesterday&kind=nonsense`);
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors).sort()).toEqual(['from', 'kind']);

    // Outsiders: the same 404 as for what does not exist; no permission: 403; nobody: 401.
    expect((await w.outsider('GET', `/api/audit/users/${w.carer.uuid}`)).statusCode).toBe(404);
    expect((await w.outsider('GET', `/api/audit/results/${ids[1]}`)).statusCode).toBe(404);
    expect((await w.outsider('GET', `/api/audit/entities/${w.home.slug}`)).statusCode).toBe(404);
    expect((await w.outsider('GET', '/api/audit/results/999999999')).statusCode).toBe(404);
    const peer = await clientFor(h.app, h.db, (await buildUser(h.db, { entityId: w.home.id })).id);
    expect((await peer('GET', `/api/audit/entities/${w.home.slug}`)).statusCode).toBe(403);
    expect(
      (await h.app.inject({ method: 'GET', url: `/api/audit/entities/${w.home.slug}` })).statusCode,
    ).toBe(401);
    // Nobody changes the trail through the product.
    for (const method of ['PATCH', 'DELETE', 'PUT'] as const)
      expect((await w.manager(method, `/api/audit/results/${ids[0]}`)).statusCode).toBe(404);
  });

  it('GraphQL: entityHistory and userHistory answer the same pages; an outsider gets NOT_FOUND', async () => {
    const w = await world();
    const made = await w.manager('POST', '/api/results/exempt', {
      user_id: w.carer.id,
      course_id: w.course.id,
      notes: 'Trained elsewhere',
    });
    expect(made.statusCode, made.body).toBe(201);
    const gql = async (userId: number, query: string, variables: Record<string, unknown>) =>
      (
        await h.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: await bearer(h.db, userId),
          payload: { query, variables },
        })
      ).json();
    const Q = `query ($id: String!, $kind: String) {
      entityHistory(id: $id, kind: $kind, first: 5) {
        data { action kind actor { id name } subject { user_id } after }
        paginatorInfo { total }
      }
      userHistory(id: $id) { paginatorInfo { total } }
    }`;
    const home = await gql(w.m.id, Q.replace('userHistory(id: $id)', `userHistory(id: "${w.carer.uuid}")`), {
      id: w.home.slug,
      kind: 'exemption',
    });
    expect(home.errors).toBeUndefined();
    expect(home.data.entityHistory.paginatorInfo.total).toBe(1);
    expect(home.data.entityHistory.data[0]).toMatchObject({
      action: 'created',
      kind: 'exemption',
      actor: { id: w.m.id },
      subject: { user_id: w.carer.id },
      after: { notes: 'Trained elsewhere' },
    });
    expect(home.data.userHistory.paginatorInfo.total).toBe(1);
    const outsider = (await buildUser(h.db, { permissions: [24] })).id;
    const denied = await gql(
      outsider,
      'query ($id: String!) { entityHistory(id: $id) { paginatorInfo { total } } }',
      {
        id: w.home.slug,
      },
    );
    expect(denied.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('the table refuses UPDATE and DELETE', async () => {
    const w = await world();
    await w.manager('PATCH', `/api/entities/${w.home.id}`, { expiry_warning: 50 });
    const [row] = await entries({ kind: 'entity', subjectId: w.home.id });
    expect(row).toBeDefined();
    await expect(
      sql`UPDATE audit_entries SET actor_name = 'Someone else' WHERE id = ${row?.id}`.execute(h.db),
    ).rejects.toThrow(/cannot be changed or deleted/);
    await expect(sql`DELETE FROM audit_entries WHERE id = ${row?.id}`.execute(h.db)).rejects.toThrow(
      /cannot be changed or deleted/,
    );
    expect((await entries({ kind: 'entity', subjectId: w.home.id }))[0]?.actor_name).toBe(w.m.name);
  });
});

describe('the inspection pack', () => {
  it("lists the home's changes of the last 12 months in plain words, for a requester who may read the trail", async () => {
    const w = await world();
    const made = await w.manager('POST', `/api/results/historical/create?actingAs=${w.home.slug}`, {
      user_id: w.carer.id,
      course_id: w.course.id,
      passed: true,
      completed_at: '2026-03-12',
    });
    expect(made.statusCode, made.body).toBe(201);
    const pack = async (permissions: number[]) => {
      const as = await clientFor(
        h.app,
        h.db,
        (await buildUser(h.db, { entityId: w.group.id, permissions })).id,
      );
      const queued = (await as('POST', `/api/entities/${w.home.slug}/inspection-pack`)).json().data;
      await runDueJobs(h.deps, new Date());
      const status = (await as('GET', `/api/inspection-packs/${queued.id}`)).json().data;
      expect(status.status, JSON.stringify(status)).toBe('done');
      return (await pdfText((await as('GET', status.pdf_url)).rawPayload)).replace(/\s+/g, ' ');
    };
    const text = await pack([13, 24]);
    expect(text).toContain('Changes to training records (last 12 months)');
    expect(text).toContain(
      `${w.m.name} recorded ${w.carer.name}'s pass for ${w.course.title} on 12/03/2026 (acting as ${w.home.name}).`,
    );
    // Without permission 24 no such section, and the CQC summary page says it is not in this pack.
    const without = await pack([13]);
    expect(without).not.toContain('Changes to training records (last 12 months)');
    expect(without).toContain('Changes to training records: not in this pack');
  });
});

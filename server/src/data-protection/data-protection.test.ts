import { describeAuditEntry, DataProtectionMessages as M } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCourse } from '../../test/content-factories';
import { bearer, buildEntity, buildUser, clientFor, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';
import { pdfText } from '../../test/pdf-text';
import { presentAuditEntry } from '../audit/service';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { removeExpiredRecords } from './jobs';

/**
 * Data protection (issue 35 §4): the subject access export holds the person's data and nobody else's, for a manager
 * over them or the person herself (404 for an outsider); erasure of a leaver pseudonymises the person, ends every
 * sign-in and keeps the training record; the nightly job removes the record once the retention period has passed.
 */
let h: Harness;
type Call = Awaited<ReturnType<typeof clientFor>>;

beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());

const MANAGER = [2, 4, 5, 18, 19, 21, 23, 24, 25, 26, 43, 46, 51, 68, 85];

/** A home with a carer (with a pass), a colleague (with a pass), a manager, and an outsider manager elsewhere. */
async function world() {
  const group = await buildEntity(h.db, { level: 'A' });
  const home = await buildEntity(h.db, { parentId: group.id, name: `Rose House ${group.slug}` });
  const course = await buildCourse(h.db, group.id, { title: `Fire Safety ${group.slug}`, published: true });
  const carer = await buildUser(h.db, { entityId: home.id, name: `Alex Carer ${group.slug}` });
  const colleague = await buildUser(h.db, { entityId: home.id, name: `Chris Colleague ${group.slug}` });
  const m = await buildUser(h.db, {
    entityId: group.id,
    name: `Sam Manager ${group.slug}`,
    permissions: MANAGER,
  });
  const manager: Call = await clientFor(h.app, h.db, m.id);
  const outsiderUser = await buildUser(h.db, { permissions: MANAGER });
  const outsider: Call = await clientFor(h.app, h.db, outsiderUser.id);
  for (const [user, day] of [
    [carer, '2026-03-12'],
    [colleague, '2026-04-01'],
  ] as const) {
    const res = await manager('POST', '/api/results/historical/create', {
      user_id: user.id,
      course_id: course.id,
      passed: true,
      completed_at: day,
    });
    expect(res.statusCode, res.body).toBe(201);
  }
  return { group, home, course, carer, colleague, m, manager, outsider };
}

const auditOf = (userId: number, kind = 'personal_data') =>
  h.db
    .selectFrom('audit_entries')
    .selectAll()
    .where('subject_user_id', '=', userId)
    .where('subject_kind', '=', kind)
    .orderBy('id')
    .execute();

describe('subject access export', () => {
  it('holds the person’s data and nothing of another person, and records the request', async () => {
    const w = await world();
    const res = await w.manager('GET', `/api/users/${w.carer.id}/personal-data`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toContain(`personal-data-${w.carer.id}.json`);
    const data = res.json();
    expect(data.person).toMatchObject({ id: w.carer.id, name: w.carer.name, email: w.carer.email });
    expect(data.person.password_hash).toBeUndefined();
    expect(data.sections.results).toHaveLength(1);
    expect(data.sections.results[0]).toMatchObject({ user_id: w.carer.id });
    expect(data.sections.results[0].completed_at).toMatch(/^2026-03-12/);
    expect(data.sections.organisations[0]).toMatchObject({ id: w.home.id, name: w.home.name });
    for (const key of [
      'attempts',
      'bookings',
      'documents_read',
      'messages_sent',
      'messages_received',
      'notifications',
      'sessions',
      'access_tokens',
      'history',
    ])
      expect(Array.isArray(data.sections[key]), key).toBe(true);
    // The result's creation is in the trail about her.
    expect(data.sections.history.some((e: { subject_kind: string }) => e.subject_kind === 'result')).toBe(
      true,
    );
    const text = JSON.stringify(data);
    expect(text).not.toContain(w.colleague.name);
    expect(text).not.toContain(w.colleague.email);
    expect(text).not.toContain('2026-04-01');
    expect(text).not.toContain('$argon2');

    const [entry] = await auditOf(w.carer.id);
    expect(entry).toMatchObject({ action: 'created', actor_user_id: w.m.id, subject_entity_id: w.home.id });
    expect(describeAuditEntry(presentAuditEntry(entry as never))).toContain('downloaded the personal data');
  });

  it('is a readable PDF in the organisation’s date format', async () => {
    const w = await world();
    await h.db
      .updateTable('entities')
      .set({ date_format: 'YYYY-MM-DD' })
      .where('id', '=', w.group.id)
      .execute();
    await h.db
      .updateTable('entities')
      .set({ date_format: 'MM/DD/YYYY' })
      .where('id', '=', w.home.id)
      .execute();
    const res = await w.manager('GET', `/api/users/${w.carer.id}/personal-data.pdf`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    const text = await pdfText(res.rawPayload);
    expect(text).toContain(`Personal data of ${w.carer.name}`);
    expect(text).toContain('Training results (1)');
    expect(text).toContain('03/12/2026');
    expect(text).not.toContain(w.colleague.name);
  });

  it('the person may download her own; an outsider gets 404, a colleague without the permission 403', async () => {
    const w = await world();
    const self = await clientFor(h.app, h.db, w.carer.id);
    const own = await self('GET', `/api/users/${w.carer.id}/personal-data`);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().person.id).toBe(w.carer.id);
    expect((await self('GET', `/api/users/${w.colleague.id}/personal-data`)).statusCode).toBe(403);
    for (const url of [
      `/api/users/${w.carer.id}/personal-data`,
      `/api/users/${w.carer.id}/personal-data.pdf`,
      `/api/users/${w.carer.id}/data-protection`,
    ])
      expect((await w.outsider('GET', url)).statusCode, url).toBe(404);
    expect(
      (await w.outsider('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: w.carer.name })).statusCode,
    ).toBe(404);
    expect(
      (await w.outsider('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: '2026-01-01' }))
        .statusCode,
    ).toBe(404);
    expect((await w.outsider('GET', `/api/entities/${w.home.slug}/data-protection`)).statusCode).toBe(404);
    expect(
      (await w.outsider('PUT', `/api/entities/${w.home.slug}/data-protection`, { retention_years: 2 }))
        .statusCode,
    ).toBe(404);
    expect(await auditOf(w.carer.id)).toHaveLength(1); // her own download only
    const unauth = await h.app.inject({ method: 'GET', url: `/api/users/${w.carer.id}/personal-data` });
    expect(unauth.statusCode).toBe(401);
  });
});

describe('erasure of a leaver', () => {
  it('is refused with 422 without a leaving date, with a future one, or with the wrong name', async () => {
    const w = await world();
    const none = await w.manager('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: w.carer.name });
    expect(none.statusCode).toBe(422);
    expect(none.json().message).toBe(M.noLeavingDate);
    expect(none.json().errors.left_on).toEqual([M.noLeavingDate]);
    const future = new Date(Date.now() + 40 * 86_400_000).toISOString().slice(0, 10);
    expect(
      (await w.manager('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: future })).statusCode,
    ).toBe(200);
    const early = await w.manager('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: w.carer.name });
    expect(early.statusCode).toBe(422);
    expect(early.json().message).toBe(M.leavingDateFuture);
    await w.manager('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: '2026-01-31' });
    const wrong = await w.manager('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: 'Someone else' });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json().errors.confirm_name).toEqual([M.confirmName]);
    const bad = await w.manager('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: '31/01/2026' });
    expect(bad.statusCode).toBe(422);
    const user = await h.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', w.carer.id)
      .executeTakeFirstOrThrow();
    expect(user).toMatchObject({ name: w.carer.name, email: w.carer.email, erased_at: null });
    expect(await auditOf(w.carer.id)).toHaveLength(0);
  });

  it('removes the personal details, keeps the results, ends every sign-in and writes the audit entries', async () => {
    const w = await world();
    const web = await webLogin(h.app, w.carer.email, TEST_PASSWORD);
    expect(web.login.statusCode).toBe(200);
    const device = await bearer(h.db, w.carer.id);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: device })).statusCode).toBe(
      200,
    );

    const left = await w.manager('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: '2026-01-31' });
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json().data).toMatchObject({
      left_on: '2026-01-31',
      records_removed_on: '2032-01-31',
      may_erase: true,
    });
    const erased = await w.manager('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: w.carer.name });
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json().message).toBe(M.erased);
    expect(erased.json().data).toMatchObject({ may_erase: false, may_set_leaving_date: false });

    const user = await h.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', w.carer.id)
      .executeTakeFirstOrThrow();
    expect(user.name).toBe(`Former staff member #${w.carer.id}`);
    expect(user.email).toBe(`erased-${w.carer.id}@erased.invalid`);
    expect(user.password_hash).toBeNull();
    expect(user.erased_at).not.toBeNull();
    const results = await h.db.selectFrom('results').selectAll().where('user_id', '=', w.carer.id).execute();
    expect(results).toHaveLength(1);
    for (const table of ['sessions', 'personal_access_tokens', 'known_devices'] as const)
      expect(
        await h.db.selectFrom(table).selectAll().where('user_id', '=', w.carer.id).execute(),
        table,
      ).toHaveLength(0);
    // Sign-in fails with the old address, the old session and the old device token.
    expect((await webLogin(h.app, w.carer.email, TEST_PASSWORD)).login.statusCode).toBe(422);
    const old = await h.app.inject({
      method: 'GET',
      url: '/api/auth/user',
      headers: web.headers(),
      cookies: web.cookies(),
    });
    expect(old.statusCode).toBe(401);
    expect((await h.app.inject({ method: 'GET', url: '/api/auth/user', headers: device })).statusCode).toBe(
      401,
    );

    const entries = await auditOf(w.carer.id);
    expect(entries.map((e) => e.action)).toEqual(['updated']);
    expect(entries[0]?.subject_label).toBe(`Former staff member #${w.carer.id}`);
    expect(describeAuditEntry(presentAuditEntry(entries[0] as never))).toContain(
      'erased the personal details',
    );
    const leaving = await auditOf(w.carer.id, 'user');
    expect(leaving.at(-1)?.after).toEqual({ left_on: '2026-01-31' });

    const again = await w.manager('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: user.name });
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(M.alreadyErased);
    // The colleague is untouched.
    const colleague = await h.db
      .selectFrom('users')
      .select(['name', 'email'])
      .where('id', '=', w.colleague.id)
      .executeTakeFirstOrThrow();
    expect(colleague).toEqual({ name: w.colleague.name, email: w.colleague.email });
  });

  it('is refused for oneself (403) and for a manager without the permission (403)', async () => {
    const w = await world();
    expect(
      (await w.manager('PUT', `/api/users/${w.m.id}/leaving-date`, { left_on: '2026-01-01' })).statusCode,
    ).toBe(403);
    const viewer = await buildUser(h.db, { entityId: w.group.id, permissions: [21] });
    const call = await clientFor(h.app, h.db, viewer.id);
    expect(
      (await call('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: '2026-01-01' })).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: w.carer.name })).statusCode,
    ).toBe(403);
    expect((await call('GET', `/api/users/${w.carer.id}/personal-data`)).statusCode).toBe(403);
  });
});

describe('retention', () => {
  it('the organisation’s period is 6 years by default, changeable (1 to 75) and audited', async () => {
    const w = await world();
    const got = await w.manager('GET', `/api/entities/${w.home.slug}/data-protection`);
    expect(got.json().data).toEqual({ retention_years: 6 });
    expect(
      (await w.manager('PUT', `/api/entities/${w.home.slug}/data-protection`, { retention_years: 0 }))
        .statusCode,
    ).toBe(422);
    expect(
      (await w.manager('PUT', `/api/entities/${w.home.slug}/data-protection`, { retention_years: 'x' }))
        .statusCode,
    ).toBe(422);
    const put = await w.manager('PUT', `/api/entities/${w.home.slug}/data-protection`, {
      retention_years: 3,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect((await w.manager('GET', `/api/entities/${w.home.slug}/data-protection`)).json().data).toEqual({
      retention_years: 3,
    });
    const entry = await h.db
      .selectFrom('audit_entries')
      .selectAll()
      .where('subject_kind', '=', 'entity')
      .where('subject_id', '=', w.home.id)
      .executeTakeFirstOrThrow();
    expect(entry.after).toEqual({ retention_years: 3 });
  });

  it('the nightly job removes an erased leaver’s records only after the period, with an audit entry', async () => {
    const w = await world();
    await w.manager('PUT', `/api/entities/${w.home.slug}/data-protection`, { retention_years: 2 });
    await w.manager('PUT', `/api/users/${w.carer.id}/leaving-date`, { left_on: '2026-01-31' });
    // The colleague left too but is not erased: the job keeps everything of hers.
    await w.manager('PUT', `/api/users/${w.colleague.id}/leaving-date`, { left_on: '2020-01-31' });
    expect(
      (await w.manager('POST', `/api/users/${w.carer.id}/erase`, { confirm_name: w.carer.name })).statusCode,
    ).toBe(200);
    const resultsOf = (id: number) =>
      h.db.selectFrom('results').select('id').where('user_id', '=', id).execute();

    // The day before the period ends: nothing goes (the recurring job, run by the queue at a fake time).
    await runDueJobs(h.deps, new Date('2028-01-30T12:00:00Z'));
    expect(await resultsOf(w.carer.id)).toHaveLength(1);
    expect(
      await h.db.selectFrom('users').select('id').where('id', '=', w.carer.id).executeTakeFirst(),
    ).toBeDefined();

    await runDueJobs(h.deps, new Date('2028-01-31T12:00:00Z'));
    expect(await resultsOf(w.carer.id)).toHaveLength(0);
    expect(
      await h.db.selectFrom('users').select('id').where('id', '=', w.carer.id).executeTakeFirst(),
    ).toBeUndefined();
    expect(await resultsOf(w.colleague.id)).toHaveLength(1);
    const entries = await auditOf(w.carer.id);
    expect(entries.map((e) => e.action)).toEqual(['updated', 'deleted']);
    expect(entries[1]).toMatchObject({ actor_user_id: null, subject_entity_id: w.home.id });
    expect(describeAuditEntry(presentAuditEntry(entries[1] as never))).toContain(
      'removed the training record',
    );
    // Run again: nothing left to do.
    expect(await removeExpiredRecords(h.deps, new Date('2028-02-01T12:00:00Z'))).toBe(0);
  });
});

describe('GraphQL', () => {
  it('personalData, setLeavingDate and erasePersonalDetails call the same services; an outsider gets NOT_FOUND', async () => {
    const w = await world();
    const gql = async (userId: number, query: string, variables: Record<string, unknown>) =>
      (
        await h.app.inject({
          method: 'POST',
          url: '/graphql',
          headers: await bearer(h.db, userId),
          payload: { query, variables },
        })
      ).json();
    const data = await gql(w.m.id, 'query ($id: ID!) { personalData(id: $id) }', { id: w.carer.uuid });
    expect(data.errors).toBeUndefined();
    expect(data.data.personalData.person.id).toBe(w.carer.id);
    expect(JSON.stringify(data.data.personalData)).not.toContain(w.colleague.email);

    const refused = await gql(
      w.m.id,
      'mutation ($id: ID!, $name: String!) { erasePersonalDetails(id: $id, confirm_name: $name) { erased_at } }',
      { id: w.carer.id, name: w.carer.name },
    );
    expect(refused.errors?.[0]?.extensions?.validation).toEqual({ left_on: [M.noLeavingDate] });
    const left = await gql(
      w.m.id,
      'mutation ($id: ID!) { setLeavingDate(id: $id, left_on: "2026-01-31") { left_on records_removed_on } }',
      { id: w.carer.id },
    );
    expect(left.data.setLeavingDate).toEqual({ left_on: '2026-01-31', records_removed_on: '2032-01-31' });
    const erased = await gql(
      w.m.id,
      'mutation ($id: ID!, $name: String!) { erasePersonalDetails(id: $id, confirm_name: $name) { erased_at may_erase } }',
      { id: w.carer.id, name: w.carer.name },
    );
    expect(erased.errors).toBeUndefined();
    expect(erased.data.erasePersonalDetails.may_erase).toBe(false);

    const outsider = (await buildUser(h.db, { permissions: MANAGER })).id;
    const hidden = await gql(outsider, 'query ($id: ID!) { personalData(id: $id) }', { id: w.colleague.id });
    expect(hidden.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

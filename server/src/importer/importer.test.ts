import { calendarDay, ResultsMessages, WEBHOOK_EVENT_DOCS } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEntity } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { as, buildUser, csv, importerWorld, planCsv, runJobs } from './fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const HEAD = ['name', 'email', 'employee_number', 'organisation', 'job_role', 'user_type', 'start_date'];

async function peopleOf(entityIds: number[]) {
  return h.db
    .selectFrom('users')
    .select([
      'id',
      'name',
      'email',
      'employee_number',
      'primary_entity_id',
      'role_id',
      'type_id',
      'start_date',
    ])
    .where('primary_entity_id', 'in', entityIds)
    .orderBy('id')
    .execute();
}

async function applyAndWait(userId: number, uuid: string) {
  const res = await (await as(h, userId))('POST', `/api/importer/imports/${uuid}/apply`);
  expect(res.statusCode, res.body).toBe(202);
  await runJobs(h);
  return (await (await as(h, userId))('GET', `/api/importer/imports/${uuid}`)).json().data;
}

describe('importer: people', () => {
  it('plans, applies, plans again as all unchanged, and undo restores the database', async () => {
    const w = await importerWorld(h);
    const existing = await buildUser(h.db, {
      entityId: w.home.id,
      name: 'Old Name',
      email: `kim-${w.group.slug}@example.test`,
    });
    const before = await peopleOf([w.group.id, w.home.id]);
    const file = csv([
      HEAD,
      [
        'Amy Carter',
        `amy-${w.group.slug}@example.test`,
        'E1',
        w.home.slug,
        'Care Assistant',
        'Carer',
        '2024-03-04',
      ],
      ['Ben Osei', `ben-${w.group.slug}@example.test`, 'E2', w.home.name, '', '', '04/03/2024'],
      ['Kim New', existing.email, '', '', 'care assistant', '', ''],
      ['Bad Date', `bad-${w.group.slug}@example.test`, '', '', '', '', '31/02/2024'],
      ['Boss', `boss-${w.group.slug}@example.test`, '', '', '', 'Boss', ''],
      ['Elsewhere', `x-${w.group.slug}@example.test`, '', 'no-such-org', '', '', ''],
      ['Amy Again', `amy2-${w.group.slug}@example.test`, 'E1', '', '', '', ''],
    ]);
    const res = await planCsv(h, w.importer.id, 'users', file);
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json().data;
    expect(plan.status).toBe('planned');
    expect(plan.counts).toMatchObject({ rows: 7, create: 2, update: 1, unchanged: 0, errors: 4 });

    const preview = (await (await as(h, w.importer.id))('GET', `/api/importer/imports/${plan.uuid}`)).json()
      .data;
    expect(preview.rows.update[0].changes).toEqual({
      name: { from: 'Old Name', to: 'Kim New' },
      job_role: { from: null, to: 'Care Assistant' },
    });
    const messages = preview.errors.map(
      (e: { row_number: number; column: string; message: string }) =>
        `${e.row_number} ${e.column}: ${e.message}`,
    );
    expect(messages).toEqual([
      '5 start_date: "31/02/2024" is not a date (use 2024-03-31 or 31/03/2024).',
      '6 user_type: You can only give a user type whose permissions you hold yourself.',
      '7 organisation: "no-such-org" is not one of your organisations (give its name or slug).',
      '8 employee_number: This person is already in the file (row 2).',
    ]);
    const errorsCsv = await (await as(h, w.importer.id))(
      'GET',
      `/api/importer/imports/${plan.uuid}/errors.csv`,
    );
    expect(errorsCsv.statusCode).toBe(200);
    expect(errorsCsv.headers['content-type']).toContain('text/csv');
    const lines = errorsCsv.body
      .replace(/^\ufeff/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(`row,column,message,${HEAD.join(',')}`);
    expect(lines).toHaveLength(5);
    expect(lines[1]).toContain(`5,start_date,"""31/02/2024"" is not a date`);

    const applied = await applyAndWait(w.importer.id, plan.uuid);
    expect(applied.import.status).toBe('applied');
    expect(applied.import.counts).toMatchObject({ created: 2, updated: 1 });
    const amy = await h.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', `amy-${w.group.slug}@example.test`)
      .executeTakeFirstOrThrow();
    expect(amy).toMatchObject({
      name: 'Amy Carter',
      employee_number: 'E1',
      primary_entity_id: w.home.id,
      role_id: w.role.id,
      type_id: w.carerType.id,
      start_date: '2024-03-04',
      employee_org_id: w.group.id,
    });
    // The compliance core moved with the new person: their required course is a cell.
    const reqs = await h.db
      .selectFrom('user_requirements')
      .select('course_id')
      .where('user_id', '=', amy.id)
      .execute();
    expect(reqs.map((r) => r.course_id)).toEqual([w.course.id]);
    const again = await (await as(h, w.importer.id))('POST', `/api/importer/imports/${plan.uuid}/apply`);
    expect(again.statusCode).toBe(409);

    // The same file again: nothing to change.
    const second = (await planCsv(h, w.importer.id, 'users', file)).json().data;
    expect(second.counts).toMatchObject({ create: 0, update: 0, unchanged: 3, errors: 4 });
    const secondApplied = await applyAndWait(w.importer.id, second.uuid);
    expect(secondApplied.import.counts).toMatchObject({ created: 0, updated: 0 });

    const undo = await (await as(h, w.importer.id))('POST', `/api/importer/imports/${plan.uuid}/undo`);
    expect(undo.statusCode, undo.body).toBe(202);
    await runJobs(h);
    const undone = (await (await as(h, w.importer.id))('GET', `/api/importer/imports/${plan.uuid}`)).json()
      .data;
    expect(undone.import.status).toBe('undone');
    expect(await peopleOf([w.group.id, w.home.id])).toEqual(before);
  });

  it('refuses without 99 (403), an outsider sees 404, bad input is 422, no session is 401', async () => {
    const w = await importerWorld(h);
    const plan = (
      await planCsv(
        h,
        w.importer.id,
        'users',
        csv([HEAD, ['A', `a-${w.group.slug}@example.test`, '', '', '', '', '']]),
      )
    ).json().data;
    const noPerm = await buildUser(h.db, { entityId: w.group.id, permissions: [3, 18] });
    expect((await planCsv(h, noPerm.id, 'users', csv([HEAD]))).statusCode).toBe(403);
    expect((await (await as(h, noPerm.id))('GET', `/api/importer/imports/${plan.uuid}`)).statusCode).toBe(
      403,
    );
    const outsider = await buildUser(h.db, { permissions: [99, 100, 3, 18] });
    for (const [method, url] of [
      ['GET', `/api/importer/imports/${plan.uuid}`],
      ['POST', `/api/importer/imports/${plan.uuid}/apply`],
      ['POST', `/api/importer/imports/${plan.uuid}/undo`],
      ['GET', `/api/importer/imports/${plan.uuid}/errors.csv`],
    ] as const)
      expect((await (await as(h, outsider.id))(method, url)).statusCode, url).toBe(404);
    expect((await (await as(h, outsider.id))('GET', '/api/importer/imports')).json().data).toEqual([]);
    const bad = await planCsv(h, w.importer.id, 'people', csv([HEAD]));
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.kind).toBeDefined();
    const noColumns = await planCsv(
      h,
      w.importer.id,
      'users',
      csv([
        ['name', 'colour'],
        ['A', 'red'],
      ]),
    );
    expect(noColumns.statusCode).toBe(422);
    expect(noColumns.json().errors.file[0]).toContain('"email"');
    expect((await h.app.inject({ method: 'GET', url: '/api/importer/imports' })).statusCode).toBe(401);
  });

  it('lists runs with a filter of unresolved errors, and resolves an error with a note (100)', async () => {
    const w = await importerWorld(h);
    const plan = (
      await planCsv(h, w.importer.id, 'users', csv([HEAD, ['', 'not-an-address', '', '', '', '', '']]))
    ).json().data;
    const c = await as(h, w.importer.id);
    const list = (await c('GET', '/api/importer/imports?unresolved=1')).json();
    expect(list.data.map((r: { uuid: string }) => r.uuid)).toEqual([plan.uuid]);
    const [error] = (await c('GET', `/api/importer/imports/${plan.uuid}/errors`)).json().data;
    const empty = await c('POST', `/api/importer/imports/${plan.uuid}/errors/${error.id}/resolve`, {
      note: '',
    });
    expect(empty.statusCode).toBe(422);
    const viewer = await buildUser(h.db, { entityId: w.group.id, permissions: [99] });
    expect(
      (
        await (
          await as(h, viewer.id)
        )('POST', `/api/importer/imports/${plan.uuid}/errors/${error.id}/resolve`, { note: 'x' })
      ).statusCode,
    ).toBe(403);
    const ok = await c('POST', `/api/importer/imports/${plan.uuid}/errors/${error.id}/resolve`, {
      note: 'Asked the home for the address.',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({
      note: 'Asked the home for the address.',
      resolved_by: { id: w.importer.id },
    });
    expect(
      (await c('POST', `/api/importer/imports/${plan.uuid}/errors/${error.id}/resolve`, { note: 'again' }))
        .statusCode,
    ).toBe(409);
    expect((await c('GET', '/api/importer/imports?unresolved=1')).json().data).toEqual([]);
  });
});

describe('importer: people of the organisation it targets (issue 28 item 6)', () => {
  it("a super admin's import never changes someone of another organisation: the row is rejected with its reason", async () => {
    const w = await importerWorld(h);
    const admin = await buildUser(h.db, { entityId: w.group.id, superAdmin: true });
    const other = await buildEntity(h.db, { level: 'A' });
    const trainer = await buildUser(h.db, {
      entityId: other.id,
      name: 'Their Trainer',
      email: `trainer-${other.slug}@demo.test`,
    });
    const before = await h.db.selectFrom('users').selectAll().where('id', '=', trainer.id).execute();
    const file = csv([
      ['name', 'email', 'organisation'],
      ['Renamed Trainer', `Trainer-${other.slug}@Demo.Test`, ''],
      ['Moved Elsewhere', `new-${w.group.slug}@example.test`, other.slug],
    ]);
    const plan = (await planCsv(h, admin.id, 'users', file)).json().data;
    expect(plan.counts).toMatchObject({ rows: 2, create: 0, update: 0, errors: 2 });
    const errors = (await (await as(h, admin.id))('GET', `/api/importer/imports/${plan.uuid}/errors`)).json()
      .data;
    expect(errors.map((e: { row_number: number; column: string; message: string }) => e)).toMatchObject([
      {
        row_number: 2,
        column: 'email',
        message: 'This e-mail address belongs to someone in another organisation.',
      },
      { row_number: 3, column: 'organisation' },
    ]);
    await applyAndWait(admin.id, plan.uuid);
    expect(await h.db.selectFrom('users').selectAll().where('id', '=', trainer.id).execute()).toEqual(before);
  });

  it('stores addresses lower-case as POST /users does, and emits user.created for each person it creates', async () => {
    const w = await importerWorld(h);
    const hook = await h.db
      .insertInto('webhook_endpoints')
      .values({
        entity_id: w.group.id,
        url: 'https://93.184.216.34/hooks/import',
        event_types: '["user.created"]',
        secret: 'whsec_MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const file = csv([
      ['name', 'email', 'organisation', 'job_role'],
      ['Mixed Case', ` Mixed.Case-${w.group.slug}@Example.TEST `, w.home.slug, 'Care Assistant'],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'users', file)).json().data;
    expect(plan.counts).toMatchObject({ create: 1, errors: 0 });
    await applyAndWait(w.importer.id, plan.uuid);
    const made = await h.db
      .selectFrom('users')
      .select(['id', 'uuid', 'email'])
      .where('name', '=', 'Mixed Case')
      .where('primary_entity_id', '=', w.home.id)
      .executeTakeFirstOrThrow();
    expect(made.email).toBe(`mixed.case-${w.group.slug}@example.test`);
    const events = await h.db
      .selectFrom('webhook_deliveries as d')
      .innerJoin('webhook_events as e', 'e.id', 'd.event_id')
      .select(['e.type', 'e.payload', 'e.entity_id'])
      .where('d.endpoint_id', '=', hook.id)
      .execute();
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      type: 'user.created',
      entity_id: w.home.id,
      payload: { user_id: made.id, user_uuid: made.uuid, entity_id: w.home.id, role_id: w.role.id },
    });
  });

  it('an unquoted =HYPERLINK(…) cell is a rejected row, and the import finishes planning', async () => {
    const w = await importerWorld(h);
    const bytes = Buffer.from(
      `name,email\n=HYPERLINK("http://evil.test/x","Click me"),eve-${w.group.slug}@example.test\n` +
        `Fine Person,fine-${w.group.slug}@example.test\n@SUM(1+1),at-${w.group.slug}@example.test\n`,
    );
    const res = await planCsv(h, w.importer.id, 'users', bytes);
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json().data;
    expect(plan.status).toBe('planned');
    expect(plan.counts).toMatchObject({ rows: 3, create: 1, errors: 2 });
    const errors = (
      await (
        await as(h, w.importer.id)
      )('GET', `/api/importer/imports/${plan.uuid}/errors`)
    ).json().data;
    expect(errors.map((e: { row_number: number }) => e.row_number)).toEqual([2, 4]);
    expect(errors[0].message).toMatch(/formula/);
  });
});

describe('importer: training records', () => {
  it('records historical passes that move latest_results and compliance, the same file twice changes nothing, undo removes them', async () => {
    const w = await importerWorld(h);
    const learner = await buildUser(h.db, {
      entityId: w.home.id,
      roleId: w.role.id,
      email: `lee-${w.group.slug}@example.test`,
    });
    await h.db.updateTable('users').set({ employee_number: 'W77' }).where('id', '=', learner.id).execute();
    const file = csv([
      [
        'LOCALESTID',
        'UNIQUEWORKERID',
        'CATEGORY',
        'DESCRIPTION',
        'DATECOMPLETED',
        'EXPIRYDATE',
        'ACCREDITED',
        'NOTES',
      ],
      ['home1', 'W77', '10', w.course.title.toUpperCase(), '15/01/2025', '', '1', 'Classroom'],
      ['home1', 'W99', '10', w.course.title, '15/01/2025', '', '', ''],
      ['home1', 'W77', '10', 'No Such Course', '15/01/2025', '', '', ''],
    ]);
    const res = await planCsv(h, w.importer.id, 'training', file, 'asc-wds-training.csv');
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json().data;
    expect(plan.counts).toMatchObject({ rows: 3, create: 1, errors: 2 });
    const applied = await applyAndWait(w.importer.id, plan.uuid);
    const jobs = await h.db
      .selectFrom('jobs')
      .select(['name', 'status', 'last_error'])
      .where('name', 'like', 'importer%')
      .execute();
    expect(applied.import.status, JSON.stringify(jobs)).toBe('applied');
    const result = await h.db
      .selectFrom('results')
      .selectAll()
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    expect(result).toMatchObject({
      type: 'historical',
      status: 'approved',
      passed: true,
      notes: 'Accredited: Yes\nClassroom',
      created_by: w.importer.id,
    });
    expect(result.expires_at?.toISOString()).toBe('2026-01-15T00:00:00.000Z');
    const latest = await h.db
      .selectFrom('latest_results')
      .selectAll()
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    expect(latest).toMatchObject({ result_id: result.id, result_count: 1, type: 'historical' });
    const req = await h.db
      .selectFrom('user_requirements')
      .selectAll()
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    expect(req.passed).toBe(true);

    const second = (await planCsv(h, w.importer.id, 'training', file)).json().data;
    expect(second.counts).toMatchObject({ create: 0, update: 0, unchanged: 1 });

    await (await as(h, w.importer.id))('POST', `/api/importer/imports/${plan.uuid}/undo`);
    await runJobs(h);
    expect(
      await h.db.selectFrom('latest_results').selectAll().where('user_id', '=', learner.id).execute(),
    ).toEqual([]);
    const after = await h.db
      .selectFrom('user_requirements')
      .selectAll()
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    expect(after.passed).toBeNull();
  });

  it('an imported pass completes a pathway step, as a hand-entered record does (the results listeners run)', async () => {
    const w = await importerWorld(h);
    const learner = await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id });
    const admin = await buildUser(h.db, { superAdmin: true });
    const api = await as(h, admin.id);
    const made = await api('POST', '/api/pathways', {
      title: 'Fire induction',
      sequential: false,
      requires_final_sign_off: false,
      steps: [{ type: 'course', course_id: w.course.id }],
    });
    expect(made.statusCode, made.body).toBe(201);
    const pathwayId = made.json().data.id as number;
    const allocated = await api('POST', `/api/pathways/${pathwayId}/allocations`, { user_ids: [learner.id] });
    expect(allocated.statusCode, allocated.body).toBe(201);
    const { email } = await h.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', learner.id)
      .executeTakeFirstOrThrow();
    const file = csv([
      ['email', 'course', 'completed_date'],
      // Yesterday (UK): in date, as a course step needs.
      [
        email,
        w.course.title,
        new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/London' }).format(Date.now() - 86_400_000),
      ],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'training', file)).json().data;
    expect(plan.counts).toMatchObject({ create: 1, errors: 0 });
    const applied = await applyAndWait(w.importer.id, plan.uuid);
    expect(applied.import.status).toBe('applied');
    const allocation = await h.db
      .selectFrom('pathway_allocations')
      .select('status')
      .where('pathway_id', '=', pathwayId)
      .where('user_id', '=', learner.id)
      .executeTakeFirstOrThrow();
    expect(allocation.status).toBe('completed');
  });

  it('a completed date after today (UK, by the server clock) is a rejected row with its reason; today is fine', async () => {
    const w = await importerWorld(h);
    const learner = await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id });
    const { email } = await h.db
      .selectFrom('users')
      .select('email')
      .where('id', '=', learner.id)
      .executeTakeFirstOrThrow();
    const now = h.deps.clock();
    const file = csv([
      ['email', 'course', 'completed_date'],
      [email, w.course.title, calendarDay(now)],
      [email, w.course.title, calendarDay(new Date(now.getTime() + 86_400_000))],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'training', file)).json().data;
    expect(plan.counts).toMatchObject({ rows: 2, create: 1, errors: 1 });
    const errors = (
      await (
        await as(h, w.importer.id)
      )('GET', `/api/importer/imports/${plan.uuid}/errors`)
    ).json().data;
    expect(errors).toMatchObject([
      { row_number: 3, column: 'completed_date', message: ResultsMessages.completedInFuture },
    ]);
  });

  it('needs 26 for training records', async () => {
    const w = await importerWorld(h, { permissions: [99, 3, 18] });
    const res = await planCsv(h, w.importer.id, 'training', csv([['email', 'course', 'completed_date']]));
    expect(res.statusCode).toBe(403);
  });
});

describe('an import whose job died (issue 28 §1)', () => {
  /** The apply's job given up for good without having run (its claims expired, or its process died on its run). */
  async function killJob(uuid: string) {
    const imp = await h.db
      .selectFrom('imports as i')
      .innerJoin('tasks as t', 't.id', 'i.task_id')
      .select(['t.job_id', 't.id as task_id'])
      .where('i.uuid', '=', uuid)
      .executeTakeFirstOrThrow();
    await h.db
      .updateTable('jobs')
      .set({ status: 'failed', last_error: 'The job did not finish in time.', finished_at: new Date() })
      .where('id', '=', imp.job_id as number)
      .execute();
    return imp.task_id;
  }

  async function stalledImport() {
    const w = await importerWorld(h);
    const file = csv([
      ['name', 'email'],
      ['Ana', `ana-${w.group.slug}@example.test`],
      ['Bo', `bo-${w.group.slug}@example.test`],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'users', file)).json().data;
    const c = await as(h, w.importer.id);
    expect((await c('POST', `/api/importer/imports/${plan.uuid}/apply`)).statusCode).toBe(202);
    // While its job can still run, the import is busy: neither a second apply nor an undo.
    expect((await c('POST', `/api/importer/imports/${plan.uuid}/apply`)).statusCode).toBe(409);
    expect((await c('POST', `/api/importer/imports/${plan.uuid}/undo`)).statusCode).toBe(409);
    const deadTask = await killJob(plan.uuid);
    return { w, c, uuid: plan.uuid as string, deadTask };
  }

  const taskStatus = async (id: number) =>
    (await h.db.selectFrom('tasks').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('can be applied again: the new job carries on, and the dead task no longer counts as in progress', async () => {
    const { w, c, uuid, deadTask } = await stalledImport();
    const again = await c('POST', `/api/importer/imports/${uuid}/apply`);
    expect(again.statusCode, again.body).toBe(202);
    expect(await taskStatus(deadTask)).toBe('failed');
    await runJobs(h);
    const view = (await c('GET', `/api/importer/imports/${uuid}`)).json().data;
    expect(view.import).toMatchObject({ status: 'applied', counts: { created: 2 } });
    const made = (await peopleOf([w.group.id])).filter((p) =>
      p.email.endsWith(`-${w.group.slug}@example.test`),
    );
    expect(made).toHaveLength(2);
  });

  it('can be undone from where it stopped', async () => {
    const { c, uuid } = await stalledImport();
    const undo = await c('POST', `/api/importer/imports/${uuid}/undo`);
    expect(undo.statusCode, undo.body).toBe(202);
    await runJobs(h);
    const view = (await c('GET', `/api/importer/imports/${uuid}`)).json().data;
    expect(view.import.status).toBe('undone');
  });
});

describe('the import.completed webhook event (issue 28)', () => {
  /** Keys and value types, recursively: what a receiver written from the documentation relies on. */
  const shapeOf = (v: unknown): unknown =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>)
            .sort(([a], [b]) => a.localeCompare(b))
            .map(([k, x]) => [k, shapeOf(x)]),
        )
      : v === null
        ? 'null'
        : typeof v;

  it('sends the payload the API documentation shows', async () => {
    const w = await importerWorld(h);
    await h.db
      .insertInto('webhook_endpoints')
      .values({
        entity_id: w.group.id,
        url: 'https://192.0.2.10/imports',
        description: 'imports receiver',
        event_types: JSON.stringify(['import.completed']),
        secret: 'whsec_dGVuYW5jeS10ZW5hbmN5LXRlbmFuY3ktdGVu',
      })
      .execute();
    const file = csv([
      ['name', 'email'],
      ['Cy', `cy-${w.group.slug}@example.test`],
    ]);
    const plan = (await planCsv(h, w.importer.id, 'users', file)).json().data;
    await applyAndWait(w.importer.id, plan.uuid);
    const event = await h.db
      .selectFrom('webhook_events')
      .select('payload')
      .where('entity_id', '=', w.group.id)
      .where('type', '=', 'import.completed')
      .executeTakeFirstOrThrow();
    expect(event.payload).toMatchObject({ uuid: plan.uuid, kind: 'users', counts: { created: 1 } });
    expect(shapeOf(event.payload)).toEqual(shapeOf(WEBHOOK_EVENT_DOCS['import.completed'].example));
  });
});

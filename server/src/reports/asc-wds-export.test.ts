import { ASC_WDS_CATEGORY_CODES, ASC_WDS_TRAINING_HEADERS, suggestAscWdsCategory } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse } from '../../test/learning-factories';
import { ALL, as, buildUser, csv, importerWorld, planCsv, runJobs } from '../importer/fixtures';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/** Plans and applies a file through the importer's API, as a manager would. */
async function importFile(userId: number, kind: 'users' | 'training', bytes: Buffer) {
  const res = await planCsv(h, userId, kind, bytes, `${kind}.csv`);
  expect(res.statusCode, res.body).toBe(201);
  const plan = res.json().data;
  const applied = await (await as(h, userId))('POST', `/api/importer/imports/${plan.uuid}/apply`);
  expect(applied.statusCode, applied.body).toBe(202);
  await runJobs(h);
  const done = (await (await as(h, userId))('GET', `/api/importer/imports/${plan.uuid}`)).json().data;
  expect(done.import.status).toBe('applied');
  return plan;
}

/** The historical training records of an organisation's people, in words (no ids): what a round trip must keep. */
async function recordsOf(entityIds: number[]) {
  const rows = await h.db
    .selectFrom('results as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .innerJoin('courses as c', 'c.id', 'r.course_id')
    .select([
      'u.employee_number',
      'c.title',
      'r.completed_at',
      'r.expires_at',
      'r.notes',
      'r.passed',
      'r.status',
    ])
    .where('u.primary_entity_id', 'in', entityIds)
    .where('r.deleted_at', 'is', null)
    .execute();
  return rows
    .map((r) => ({
      worker: r.employee_number,
      course: r.title,
      completed: r.completed_at.toISOString().slice(0, 10),
      expires: r.expires_at?.toISOString().slice(0, 10) ?? null,
      notes: r.notes,
      passed: r.passed,
      status: r.status,
    }))
    .sort((a, b) =>
      `${a.worker}${a.course}${a.completed}`.localeCompare(`${b.worker}${b.course}${b.completed}`),
    );
}

/** A group with a home whose staff have training records imported, a manager who exports, courses mapped or not. */
async function exportWorld() {
  const w = await importerWorld(h);
  const manager = await buildUser(h.db, { entityId: w.group.id, permissions: ALL });
  const api = await as(h, manager.id);
  const slug = w.group.slug;
  const moving = await buildCourse(h.db, w.group.id, { title: `Moving and Handling ${slug}` });
  const unmapped = await buildCourse(h.db, w.group.id, { title: `Baking ${slug}` });
  await importFile(
    manager.id,
    'users',
    csv([
      ['name', 'email', 'employee_number', 'organisation'],
      ['Ann Lee', `ann-${slug}@example.test`, `A-${slug}`, w.home.slug],
      ['Bob Kay', `bob-${slug}@example.test`, `B-${slug}`, w.home.slug],
      ['Cy Noid', `cy-${slug}@example.test`, '', w.home.slug],
    ]),
  );
  await importFile(
    manager.id,
    'training',
    csv([
      ['email', 'course', 'completed_date', 'expiry_date', 'accredited', 'notes'],
      [`ann-${slug}@example.test`, w.course.title, '15/01/2025', '15/01/2026', '1', 'Classroom'],
      [`ann-${slug}@example.test`, moving.title, '2025-02-03', '', '999', ''],
      [`ann-${slug}@example.test`, unmapped.title, '2025-02-03', '', '', ''],
      [`bob-${slug}@example.test`, w.course.title, '01/03/2025', '', '0', '"Said ""yes"", then left early"'],
      [`cy-${slug}@example.test`, w.course.title, '01/03/2025', '', '', ''],
    ]),
  );
  return { ...w, manager, api, moving, unmapped };
}

const fileLines = (body: string) => body.trimEnd().split('\r\n');

describe('ASC-WDS training export', () => {
  it('shows what is missing, then writes the ASC-WDS file: its header, DD/MM/YYYY dates, valid categories, accredited codes', async () => {
    const w = await exportWorld();
    const url = `/api/entities/${w.home.slug}/asc-wds`;
    let preview = (await w.api('GET', `${url}/training?since=all`)).json().data;
    expect(preview.home.local_establishment_id).toBeNull();
    expect(preview.rows).toEqual([]);
    // Every course is missing a category, with a suggestion from its title where one fits.
    expect(
      preview.courses.map((c: { title: string; category: null; suggestion: number | null }) => c),
    ).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ title: w.course.title, category: null, suggestion: 6 }),
        expect.objectContaining({ title: w.moving.title, category: null, suggestion: 15 }),
        expect.objectContaining({ title: w.unmapped.title, category: null, suggestion: null }),
      ]),
    );
    expect(preview.missing_id).toEqual([expect.objectContaining({ name: 'Cy Noid', records: 1 })]);
    // No workplace ID: no file.
    const refused = await w.api('POST', `${url}/exports?since=all`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.local_establishment_id).toBeDefined();

    expect((await w.api('PUT', url, { local_establishment_id: '=HYPERLINK()' })).statusCode).toBe(422);
    expect((await w.api('PUT', url, { local_establishment_id: 'x'.repeat(51) })).statusCode).toBe(422);
    const saved = await w.api('PUT', url, { local_establishment_id: ' ROSE01 ' });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data.local_establishment_id).toBe('ROSE01');
    expect((await w.api('PUT', `${url}/categories/${w.course.id}`, { category: 3 })).statusCode).toBe(422);
    for (const [course, category] of [
      [w.course.id, 6],
      [w.moving.id, 15],
    ])
      expect((await w.api('PUT', `${url}/categories/${course}`, { category })).statusCode).toBe(200);

    preview = (await w.api('GET', `${url}/training?since=all`)).json().data;
    expect(preview.rows).toHaveLength(3);
    expect(preview.invalid).toEqual([]);
    expect(preview.courses.find((c: { id: number }) => c.id === w.unmapped.id)).toMatchObject({
      category: null,
      records: 1,
    });

    const res = await w.api('POST', `${url}/exports?since=all`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="asc-wds-training-.*\.csv"/);
    const lines = fileLines(res.body);
    // The header ASC-WDS compares exactly (trainingHeaders.js).
    expect(lines[0]).toBe(ASC_WDS_TRAINING_HEADERS.join(','));
    expect(lines[0]).toBe(
      'LOCALESTID,UNIQUEWORKERID,CATEGORY,TRAININGNAME,ACCREDITED,WHODELIVERED,PROVIDERNAME,HOWDELIVERED,VALIDITY,DATECOMPLETED,EXPIRYDATE,NOTES',
    );
    expect(lines).toHaveLength(4);
    expect(lines).toContain(
      `ROSE01,A-${w.group.slug},6,${w.course.title},1,,,,,15/01/2025,15/01/2026,Classroom`,
    );
    expect(lines).toContain(`ROSE01,A-${w.group.slug},15,${w.moving.title},999,,,,,03/02/2025,,`);
    expect(lines).toContain(
      `ROSE01,B-${w.group.slug},6,${w.course.title},0,,,,,01/03/2025,,"Said ""yes"", then left early"`,
    );
    for (const line of lines.slice(1)) {
      const cells = line.match(/("([^"]|"")*"|[^,]*)(,|$)/g)?.map((c) => c.replace(/,$/, '')) ?? [];
      expect(ASC_WDS_CATEGORY_CODES.has(Number(cells[2]))).toBe(true);
      expect(cells[9]).toMatch(/^(0[1-9]|[12][0-9]|3[01])\/(0[1-9]|1[012])\/\d{4}$/);
      expect(cells[10]).toMatch(/^$|^(0[1-9]|[12][0-9]|3[01])\/(0[1-9]|1[012])\/\d{4}$/);
      expect(['0', '1', '999', '']).toContain(cells[4]);
    }
    const recorded = await h.db
      .selectFrom('asc_wds_exports')
      .selectAll()
      .where('entity_id', '=', w.home.id)
      .execute();
    expect(recorded).toMatchObject([{ since: 'all', row_count: 3, created_by: w.manager.id }]);
  });

  it('round trip: the file imported into an empty organisation gives the same records', async () => {
    const a = await exportWorld();
    const url = `/api/entities/${a.home.slug}/asc-wds`;
    await a.api('PUT', url, { local_establishment_id: 'ROSE01' });
    for (const course of [a.course, a.moving, a.unmapped])
      await a.api('PUT', `${url}/categories/${course.id}`, {
        category: suggestAscWdsCategory(course.title) ?? 21,
      });
    const file = await a.api('POST', `${url}/exports?since=all`);
    expect(file.statusCode, file.body).toBe(201);

    // An empty organisation: the same courses and people (by employee number), no training records.
    const group = await buildEntity(h.db, { level: 'A' });
    const home = await buildEntity(h.db, { parentId: group.id });
    for (const course of [a.course, a.moving, a.unmapped])
      await buildCourse(h.db, group.id, { title: course.title });
    const manager = await buildUser(h.db, { entityId: group.id, permissions: ALL });
    const people = await h.db
      .selectFrom('users')
      .select(['name', 'employee_number'])
      .where('primary_entity_id', '=', a.home.id)
      .where('employee_number', 'is not', null)
      .execute();
    await importFile(
      manager.id,
      'users',
      csv([
        ['name', 'email', 'employee_number', 'organisation'],
        ...people.map((p) => [
          p.name,
          `${p.employee_number}@b.example.test`,
          p.employee_number ?? '',
          home.slug,
        ]),
      ]),
    );
    expect(await recordsOf([group.id, home.id])).toEqual([]);
    const plan = await importFile(manager.id, 'training', Buffer.from(file.body));
    expect(plan.counts).toMatchObject({ rows: 4, create: 4, errors: 0 });

    const before = (await recordsOf([a.home.id])).filter((r) => r.worker !== null);
    expect(before).toHaveLength(4);
    expect(await recordsOf([home.id])).toEqual(before);
  });

  it('since the last export: every record of each person with a change, nothing when nothing changed', async () => {
    const w = await exportWorld();
    const url = `/api/entities/${w.home.slug}/asc-wds`;
    await w.api('PUT', url, { local_establishment_id: 'ROSE01' });
    await w.api('PUT', `${url}/categories/${w.course.id}`, { category: 6 });
    await w.api('PUT', `${url}/categories/${w.moving.id}`, { category: 15 });
    // No export yet: "since the last" is everything.
    expect((await w.api('GET', `${url}/training`)).json().data.rows).toHaveLength(3);
    expect((await w.api('POST', `${url}/exports`)).statusCode).toBe(201);
    const after = (await w.api('GET', `${url}/training`)).json().data;
    expect(after.rows).toEqual([]);
    expect(after.last_export).toMatchObject({ since: 'last', rows: 3, by: w.manager.name });
    const nothing = await w.api('POST', `${url}/exports`);
    expect(nothing.statusCode).toBe(422);

    // Bob does a new course: his file holds all his records (ASC-WDS replaces a worker's training), Ann's none.
    await new Promise((r) => setTimeout(r, 20));
    await importFile(
      w.manager.id,
      'training',
      csv([
        ['employee_number', 'course', 'completed_date'],
        [`B-${w.group.slug}`, w.moving.title, '10/03/2025'],
      ]),
    );
    const changed = (await w.api('GET', `${url}/training`)).json().data;
    expect(
      changed.rows.map((r: { person: { name: string }; course: { title: string } }) => r.course.title).sort(),
    ).toEqual([w.course.title, w.moving.title].sort());
    expect(new Set(changed.rows.map((r: { person: { name: string } }) => r.person.name))).toEqual(
      new Set(['Bob Kay']),
    );
    expect((await w.api('GET', `${url}/training?since=all`)).json().data.rows).toHaveLength(4);
  });

  it('a row the importer would refuse is left out and listed (the same rules: expiry after completion)', async () => {
    const w = await exportWorld();
    const url = `/api/entities/${w.home.slug}/asc-wds`;
    await w.api('PUT', url, { local_establishment_id: 'ROSE01' });
    await w.api('PUT', `${url}/categories/${w.course.id}`, { category: 6 });
    const ann = await h.db
      .selectFrom('users')
      .select('id')
      .where('employee_number', '=', `A-${w.group.slug}`)
      .executeTakeFirstOrThrow();
    await h.db
      .updateTable('results')
      .set({ expires_at: new Date('2025-01-15T00:00:00Z') })
      .where('user_id', '=', ann.id)
      .where('course_id', '=', w.course.id)
      .execute();
    const preview = (await w.api('GET', `${url}/training?since=all`)).json().data;
    expect(preview.invalid).toEqual([
      {
        person: 'Ann Lee',
        course: w.course.title,
        column: 'expiry_date',
        message: 'The expiry date must be after the completed date.',
      },
    ]);
    expect(preview.rows.map((r: { person: { name: string } }) => r.person.name)).toEqual(['Bob Kay']);
  });

  it('another organisation’s home is 404, the same as a missing one; without the permissions 403', async () => {
    const w = await exportWorld();
    const other = await buildEntity(h.db, { level: 'A' });
    const outsider = await as(h, (await buildUser(h.db, { entityId: other.id, permissions: ALL })).id);
    const base = `/api/entities/${w.home.slug}/asc-wds`;
    const calls: [Parameters<typeof outsider>[0], string, unknown?][] = [
      ['GET', base],
      ['PUT', base, { local_establishment_id: 'X1' }],
      ['GET', `${base}/training`],
      ['POST', `${base}/exports?since=all`],
      ['PUT', `${base}/categories/${w.course.id}`, { category: 6 }],
    ];
    for (const [method, path, body] of calls) {
      const res = await outsider(method, path, body);
      expect(res.statusCode, `${method} ${path}`).toBe(404);
      const missing = await outsider(method, path.replace(w.home.slug, 'no-such-home'), body);
      expect(missing.statusCode).toBe(404);
      expect(res.json().message).toBe(missing.json().message);
    }
    // A course the caller cannot see is 404 too.
    const theirs = await buildCourse(h.db, other.id, { title: 'Theirs' });
    expect((await w.api('PUT', `${base}/categories/${theirs.id}`, { category: 6 })).statusCode).toBe(404);
    const insider = await as(h, (await buildUser(h.db, { entityId: w.group.id, permissions: [] })).id);
    for (const [method, path, body] of calls)
      expect((await insider(method, path, body)).statusCode, `${method} ${path}`).toBe(403);
    expect(
      await h.db.selectFrom('asc_wds_settings').selectAll().where('entity_id', '=', w.home.id).execute(),
    ).toEqual([]);
  });
});

describe('the importer reads an ASC-WDS file with the same rules', () => {
  it('refuses a CATEGORY that is not an ASC-WDS code, a missing LOCALESTID and a too long NOTES', async () => {
    const w = await importerWorld(h);
    const learner = await buildUser(h.db, { entityId: w.home.id });
    await h.db.updateTable('users').set({ employee_number: 'W1' }).where('id', '=', learner.id).execute();
    const head = ['LOCALESTID', 'UNIQUEWORKERID', 'CATEGORY', 'TRAININGNAME', 'DATECOMPLETED', 'NOTES'];
    const res = await planCsv(
      h,
      w.importer.id,
      'training',
      csv([
        head,
        ['ROSE01', 'W1', '6', w.course.title, '15/01/2025', 'fine'],
        ['ROSE01', 'W1', '3', w.course.title, '16/01/2025', ''],
        ['', 'W1', '6', w.course.title, '17/01/2025', ''],
        ['ROSE01', 'W1', '6', w.course.title, '18/01/2025', 'x'.repeat(1001)],
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const plan = res.json().data;
    expect(plan.counts).toMatchObject({ rows: 4, create: 1, errors: 3 });
    const errors = (
      await (
        await as(h, w.importer.id)
      )('GET', `/api/importer/imports/${plan.uuid}/errors`)
    ).json().data as { row_number: number; column: string; message: string }[];
    expect(errors.map((e) => `${e.row_number} ${e.column}: ${e.message}`)).toEqual([
      '3 category: CATEGORY is not an ASC-WDS training category code.',
      '4 workplace: Enter the workplace ID (LOCALESTID).',
      '5 notes: The notes are longer than 1,000 characters.',
    ]);
  });
});

describe('ASC-WDS export over GraphQL', () => {
  async function gql(userId: number, query: string, variables: Record<string, unknown> = {}) {
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: await bearer(h.db, userId),
      payload: { query, variables },
    });
    return res.json() as {
      // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by the query each test sends.
      data?: Record<string, any> | null;
      errors?: { message: string; extensions?: { status?: number } }[];
    };
  }

  it('the same preview and settings as REST; another organisation’s home is NOT_FOUND; bad input 422', async () => {
    const w = await exportWorld();
    const set = await gql(
      w.manager.id,
      'mutation($s: String!) { setAscWdsWorkplaceId(slug: $s, local_establishment_id: "ROSE01") { local_establishment_id } }',
      { s: w.home.slug },
    );
    expect(set.data?.setAscWdsWorkplaceId.local_establishment_id).toBe('ROSE01');
    const mapped = await gql(
      w.manager.id,
      'mutation($s: String!, $c: Int!) { setAscWdsCategory(slug: $s, course_id: $c, category: 6) { category suggestion } }',
      { s: w.home.slug, c: w.course.id },
    );
    expect(mapped.data?.setAscWdsCategory).toEqual({ category: 6, suggestion: 6 });
    const bad = await gql(
      w.manager.id,
      'mutation($s: String!, $c: Int!) { setAscWdsCategory(slug: $s, course_id: $c, category: 3) { category } }',
      { s: w.home.slug, c: w.course.id },
    );
    expect(bad.errors?.[0]?.extensions?.status).toBe(422);
    const query = 'query($s: String!) { ascWdsExport(slug: $s, since: "all") }';
    const preview = (await gql(w.manager.id, query, { s: w.home.slug })).data?.ascWdsExport;
    const rest = (await w.api('GET', `/api/entities/${w.home.slug}/asc-wds/training?since=all`)).json().data;
    expect(preview).toEqual(rest);
    expect(preview.rows).toHaveLength(2);
    const other = await buildEntity(h.db, { level: 'A' });
    const outsider = await buildUser(h.db, { entityId: other.id, permissions: ALL });
    expect((await gql(outsider.id, query, { s: w.home.slug })).errors?.[0]?.extensions?.status).toBe(404);
  });
});

describe('category suggestions', () => {
  it('suggest from the title, or nothing', () => {
    expect(suggestAscWdsCategory('Safeguarding Adults Level 2')).toBe(20);
    expect(suggestAscWdsCategory('Infection Prevention & Control')).toBe(10);
    expect(suggestAscWdsCategory('Food Hygiene')).toBe(8);
    expect(suggestAscWdsCategory('MCA and DoLS')).toBe(14);
    expect(suggestAscWdsCategory('Oliver McGowan Tier 2')).toBe(43);
    expect(suggestAscWdsCategory('Baking')).toBeNull();
  });
});

import { calendarDay, ResultsMessages } from '@cc/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { bearer } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildUser, csv, importerWorld, planCsv, runJobs } from './fixtures';

/** The importer over GraphQL: the same service and answers as REST. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function gql(userId: number | null, query: string, variables: Record<string, unknown> = {}) {
  const headers = userId === null ? {} : await bearer(h.db, userId);
  const res = await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } });
  return res.json() as {
    // biome-ignore lint/suspicious/noExplicitAny: GraphQL answers are read by the query each test sends.
    data?: Record<string, any> | null;
    errors?: { message: string; extensions?: { status?: number } }[];
  };
}
const statusOf = (r: Awaited<ReturnType<typeof gql>>) => r.errors?.[0]?.extensions?.status;

it('lists, applies, undoes and resolves over GraphQL; 401, 403 and 404 as REST', async () => {
  const w = await importerWorld(h);
  const file = csv([
    ['name', 'email'],
    ['Amy', `amy-${w.group.slug}@example.test`],
    ['', 'bad'],
  ]);
  const plan = (await planCsv(h, w.importer.id, 'users', file)).json().data;
  const list = await gql(w.importer.id, '{ imports { data { uuid status counts } } }');
  expect(list.data?.imports.data.map((i: { uuid: string }) => i.uuid)).toEqual([plan.uuid]);
  const applied = await gql(w.importer.id, 'mutation($u: String!) { applyImport(uuid: $u) { status } }', {
    u: plan.uuid,
  });
  expect(applied.data?.applyImport.status).toBe('applying');
  await runJobs(h);
  const run = await gql(
    w.importer.id,
    'query($u: String!) { importRun(uuid: $u) { import { status } errors { id } } }',
    { u: plan.uuid },
  );
  expect(run.data?.importRun.import.status).toBe('applied');
  const errorId = run.data?.importRun.errors[0].id;
  const resolved = await gql(
    w.importer.id,
    'mutation($u: String!, $id: ID!) { resolveImportError(uuid: $u, id: $id, note: "Fixed") { note } }',
    { u: plan.uuid, id: errorId },
  );
  expect(resolved.data?.resolveImportError.note).toBe('Fixed');
  const outsider = await buildUser(h.db, { permissions: [99, 100, 3] });
  expect(
    statusOf(
      await gql(outsider.id, 'mutation($u: String!) { undoImport(uuid: $u) { status } }', { u: plan.uuid }),
    ),
  ).toBe(404);
  const noPerm = await buildUser(h.db, { entityId: w.group.id, permissions: [3] });
  expect(statusOf(await gql(noPerm.id, '{ imports { data { uuid } } }'))).toBe(403);
  expect(statusOf(await gql(null, '{ imports { data { uuid } } }'))).toBe(401);
  const undone = await gql(w.importer.id, 'mutation($u: String!) { undoImport(uuid: $u) { status } }', {
    u: plan.uuid,
  });
  expect(undone.data?.undoImport.status).toBe('undoing');
});

it('planImport over GraphQL rejects a training row completed after today, with its reason', async () => {
  const w = await importerWorld(h);
  const learner = await buildUser(h.db, { entityId: w.home.id, roleId: w.role.id });
  const { email } = await h.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', learner.id)
    .executeTakeFirstOrThrow();
  const tomorrow = calendarDay(new Date(h.deps.clock().getTime() + 86_400_000));
  const file = csv([
    ['email', 'course', 'completed_date'],
    [email, w.course.title, tomorrow],
  ]);
  // A GraphQL multipart request (operations + map) with the CSV as variable `file`.
  const boundary = `----cc${Date.now()}`;
  const field = (name: string, value: string) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`);
  const query = 'mutation($f: Upload!) { planImport(kind: "training", file: $f) { uuid counts } }';
  const payload = Buffer.concat([
    field('operations', JSON.stringify({ query, variables: { f: null } })),
    field('map', JSON.stringify({ 0: ['variables.f'] })),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="0"; filename="training.csv"\r\nContent-Type: text/csv\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: {
      ...(await bearer(h.db, w.importer.id)),
      'content-type': `multipart/form-data; boundary=${boundary}`,
    },
    payload,
  });
  const planned = res.json();
  expect(planned.errors, res.body).toBeUndefined();
  expect(planned.data.planImport.counts).toMatchObject({ rows: 1, create: 0, errors: 1 });
  const errors = await gql(
    w.importer.id,
    'query($u: String!) { importErrors(uuid: $u) { data { row_number column message } } }',
    { u: planned.data.planImport.uuid },
  );
  expect(errors.data?.importErrors.data).toEqual([
    { row_number: 2, column: 'completed_date', message: ResultsMessages.completedInFuture },
  ]);
});

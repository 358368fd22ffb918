import { ACTING_AS_HEADER, MatrixPerm, Perm } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';

/** GraphQL `matrix` (issue 38 §1): paged by people, the same service, scope and permission as POST /reports/matrix. */

let h: Harness;
let group: { id: number; slug: string };
let home: { id: number; slug: string };
let course: { id: number };
let manager: { id: number };
let learners: { id: number }[];
beforeAll(async () => {
  h = await createHarness();
  group = await buildEntity(h.db, { level: 'A' });
  home = await buildEntity(h.db, { parentId: group.id });
  const role = await buildRole(h.db, group.id);
  course = await buildCourse(h.db, group.id, { title: 'Fire safety' });
  await h.db
    .insertInto('compliance_rules')
    .values({
      entity_id: group.id,
      role_id: role.id,
      course_id: course.id,
      type: 'primary',
      validity_months: 12,
    })
    .execute();
  learners = [];
  for (const [i, entityId] of [group.id, group.id, home.id].entries())
    learners.push(await buildUser(h.db, { entityId, roleId: role.id, name: `Learner ${i + 1}` }));
  await buildPassedResult(h.db, { userId: learners[0]!.id, entityId: group.id, courseId: course.id });
  manager = await buildUser(h.db, { entityId: group.id, permissions: [MatrixPerm.report, Perm.actingAs] });
});
afterAll(async () => h?.close());

interface Row {
  user_id: number;
  name: string;
  score: number;
  cells: Record<string, unknown>[];
}
interface Body {
  data?: {
    matrix: { data: Row[]; paginatorInfo: { total: number; lastPage: number; count: number } };
  } | null;
  errors?: { message: string; extensions?: { code?: string; status?: number } }[];
}

const CELL_FIELDS =
  'course_id in_date_passed in_expiry_warning_period latest_result_completed latest_result_expires latest_result_id primary_entity_id result_count role_id type user_id due_by counted';
const QUERY = `query ($first: Int, $page: Int, $entities: [Int!], $compliance_type: String) {
  matrix(first: $first, page: $page, entities: $entities, compliance_type: $compliance_type) {
    data { user_id name score cells { ${CELL_FIELDS} status } }
    paginatorInfo { total lastPage count currentPage }
    courses { id title }
  }
}`;

async function gql(variables: Record<string, unknown>, headers: Record<string, string>) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers,
    payload: { query: QUERY, variables },
  });
  return { status: res.statusCode, body: res.json() as Body };
}

describe('GraphQL matrix', () => {
  it('answers UNAUTHENTICATED without a caller', async () => {
    const { body } = await gql({}, {});
    expect(body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('pages the people with the spec’s cell names, and agrees with POST /reports/matrix', async () => {
    const headers = await bearer(h.db, manager.id);
    const one = await gql({ first: 2, page: 1 }, headers);
    expect(one.body.errors).toBeUndefined();
    const m1 = one.body.data!.matrix;
    // Everyone in scope is a row (deep by default: the home's learner too); the manager has no requirement.
    expect(m1.paginatorInfo).toMatchObject({ total: 4, lastPage: 2, count: 2, currentPage: 1 });
    const two = (await gql({ first: 2, page: 2 }, headers)).body.data!.matrix;
    expect(two.paginatorInfo).toMatchObject({ count: 2, currentPage: 2 });
    const rows = [...m1.data, ...two.data];
    expect(rows.map((r) => r.user_id)).toEqual([...learners.map((l) => l.id), manager.id]);
    expect(rows[3]!.cells).toEqual([]);
    const cell = rows[0]!.cells[0]!;
    expect(Object.keys(cell).sort()).toEqual([...CELL_FIELDS.split(' '), 'status'].sort());
    expect(cell).toMatchObject({
      course_id: course.id,
      in_date_passed: true,
      type: 'primary',
      result_count: 1,
    });
    expect(rows[0]!.score).toBe(100);
    expect(rows[1]!.cells[0]).toMatchObject({
      in_date_passed: false,
      status: 'missing',
      latest_result_id: null,
    });

    const rest = await h.app.inject({
      method: 'POST',
      url: '/api/reports/matrix',
      headers,
      payload: { directFormat: 'json' },
    });
    const restCells = (rest.json().data.cells as Record<string, unknown>[]).map(({ status: _s, ...c }) => c);
    const gqlCells = rows.flatMap((r) => r.cells).map(({ status: _s, ...c }) => c);
    // The same cells (a block's cells come in no promised order: compare them by person and course).
    const byCell = (list: Record<string, unknown>[]) =>
      [...list].sort(
        (a, b) =>
          (a.user_id as number) - (b.user_id as number) || (a.course_id as number) - (b.course_id as number),
      );
    expect(byCell(gqlCells)).toEqual(byCell(restCells));
  });

  it('answers an empty page past the end', async () => {
    const headers = await bearer(h.db, manager.id);
    const { body } = await gql({ first: 2, page: 9 }, headers);
    expect(body.data!.matrix.data).toEqual([]);
    expect(body.data!.matrix.paginatorInfo.total).toBe(4);
  });

  it('narrows to the acting-as entity, as the REST route', async () => {
    const headers = { ...(await bearer(h.db, manager.id)), [ACTING_AS_HEADER]: home.slug };
    const { body } = await gql({ first: 10 }, headers);
    expect(body.data!.matrix.data.map((r) => r.name)).toEqual(['Learner 3']);
  });

  it('answers 422 for bad filters, FORBIDDEN without permission 12, NOT_FOUND for another organisation', async () => {
    const headers = await bearer(h.db, manager.id);
    const bad = await gql({ compliance_type: 'sometimes' }, headers);
    expect(bad.body.errors?.[0]?.extensions?.status).toBe(422);
    const tooMany = await gql({ first: 1000 }, headers);
    expect(tooMany.body.errors?.[0]?.extensions?.status).toBe(422);

    const learner = await bearer(h.db, learners[1]!.id);
    const refused = await gql({}, learner);
    expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');

    const elsewhere = await buildEntity(h.db, { level: 'A' });
    const outside = await gql({ entities: [elsewhere.id] }, headers);
    expect(outside.body.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const rest = await h.app.inject({
      method: 'POST',
      url: '/api/reports/matrix',
      headers,
      payload: { directFormat: 'json', entities: [elsewhere.id] },
    });
    expect(rest.statusCode).toBe(404);
  });
});

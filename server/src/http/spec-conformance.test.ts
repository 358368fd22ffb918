/**
 * Spec conformance (issue 38): the spec's calls touched by the name audit, kept here as DATA (method, path, status,
 * where to look in the answer and the field names the spec gives), checked against the app over HTTP. A renamed
 * field, a dropped alias or a route that stops answering fails CI. One harness and one small world: an
 * organisation (level A) with one home (level B), a job role with a Mandatory course, a topic with its H5P.
 *
 * Paths use placeholders filled from the world: {group} {home} (slugs), {groupId}, {roleId}, {typeId}, {courseId},
 * {topicId}. `at` is a dotted path into the JSON answer ("data.0" is the first list item); `fields` must all be keys
 * of the object found there (extra fields of ours are allowed: the spec's names are answered beside ours).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildH5p, buildTopic } from '../../test/content-factories';
import { bearer, buildEntity, buildRole, buildType, buildUser } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCourse, buildPassedResult } from '../../test/learning-factories';

interface SpecCall {
  /** Where the spec names it. */
  spec: string;
  method: 'GET' | 'POST';
  path: string;
  body?: Record<string, unknown>;
  status: number;
  at: string;
  fields: string[];
}

const MATRIX_CELL = [
  'course_id',
  'in_date_passed',
  'in_expiry_warning_period',
  'latest_result_completed',
  'latest_result_expires',
  'latest_result_id',
  'primary_entity_id',
  'result_count',
  'role_id',
  'type',
  'user_id',
];
const ENTITY = ['id', 'slug', 'is_training_company', 'children', 'courses', 'score'];
const ROLE = ['id', 'name', 'inspectable', 'users_count'];
const GQL_MATRIX = `{ matrix(first: 10, page: 1) { paginatorInfo { lastPage } data { cells { ${MATRIX_CELL.join(' ')} } } } }`;
const GQL_USERS =
  '{ users(first: 10) { paginatorInfo { lastPage } data { id emailVerified email_verified } } }';

const CALLS: SpecCall[] = [
  // spec 1 §3 Entity, §7 GET /entities and GET /entities/{id}
  {
    spec: '1 §7 GET /entities',
    method: 'GET',
    path: '/api/entities',
    status: 200,
    at: 'data.0',
    fields: ENTITY,
  },
  {
    spec: '1 §7 GET /entities/{id}',
    method: 'GET',
    path: '/api/entities/{groupId}',
    status: 200,
    at: 'data',
    fields: ENTITY,
  },
  // spec 2 §3 Topic
  {
    spec: '2 §7 GET /topics/{id}',
    method: 'GET',
    path: '/api/topics/{topicId}',
    status: 200,
    at: 'data',
    fields: ['id', 'title', 'hidden', 'skippable', 'is_child', 'h5p', 'h5ps', 'resources'],
  },
  {
    spec: '2 §3 Topic h5ps item',
    method: 'GET',
    path: '/api/topics/{topicId}',
    status: 200,
    at: 'data.h5ps.0',
    fields: ['id'],
  },
  // spec 2 §3 Compliance: entity, roleId, courseId
  {
    spec: '2 §7 GET /compliance/role/{roleId}/course/{courseId}',
    method: 'GET',
    path: '/api/compliance/role/{roleId}/course/{courseId}?entity={group}',
    status: 200,
    at: 'data',
    fields: ['roleId', 'courseId', 'entity'],
  },
  {
    spec: '2 §7 GET /compliance/{entity}/role/{roleId}',
    method: 'GET',
    path: '/api/compliance/{home}/role/{roleId}',
    status: 200,
    at: 'data.0',
    fields: ['roleId', 'courseId', 'entity'],
  },
  // spec 2 §7 Roles and types: stats and details, also under /entities/{slug}
  {
    spec: '2 §7 GET roles/stats',
    method: 'GET',
    path: '/api/roles/stats',
    status: 200,
    at: 'data.0',
    fields: ROLE,
  },
  {
    spec: '2 §7 GET /entities/{slug}/roles/stats',
    method: 'GET',
    path: '/api/entities/{group}/roles/stats',
    status: 200,
    at: 'data.0',
    fields: ROLE,
  },
  {
    spec: '2 §7 GET /entities/{slug}/roles/{id}/details',
    method: 'GET',
    path: '/api/entities/{home}/roles/{roleId}/details',
    status: 200,
    at: 'data',
    fields: [...ROLE, 'users'],
  },
  {
    spec: '2 §7 GET roles/{id}/details',
    method: 'GET',
    path: '/api/roles/{roleId}/details',
    status: 200,
    at: 'data',
    fields: [...ROLE, 'users'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/types/stats',
    method: 'GET',
    path: '/api/entities/{group}/types/stats',
    status: 200,
    at: 'data.0',
    fields: ['id', 'name', 'users_count'],
  },
  {
    spec: '2 §7 GET /entities/{slug}/types/{id}/details',
    method: 'GET',
    path: '/api/entities/{group}/types/{typeId}/details',
    status: 200,
    at: 'data',
    fields: ['id', 'name', 'users_count', 'users'],
  },
  // spec 1 §7 Users
  {
    spec: '1 §7 GET /users',
    method: 'GET',
    path: '/api/users',
    status: 200,
    at: 'data.0',
    fields: ['id', 'uuid', 'name', 'email'],
  },
  // spec 2 §7 POST /reports/matrix, §3 Matrix response and Matrix cell
  {
    spec: '2 §3 Matrix response',
    method: 'POST',
    path: '/api/reports/matrix',
    body: { directFormat: 'json' },
    status: 200,
    at: 'data',
    fields: ['breakdown', 'cells', 'users', 'results', 'primary_scores', 'pathway_allocations'],
  },
  {
    spec: '2 §3 Matrix cell (REST)',
    method: 'POST',
    path: '/api/reports/matrix',
    body: { directFormat: 'json' },
    status: 200,
    at: 'data.cells.0',
    fields: MATRIX_CELL,
  },
  // spec 2 §7 GraphQL: matrix (paged: first, page, paginatorInfo.lastPage, data) and users
  {
    spec: '2 §7 GraphQL matrix',
    method: 'POST',
    path: '/graphql',
    body: { query: GQL_MATRIX },
    status: 200,
    at: 'data.matrix',
    fields: ['paginatorInfo', 'data'],
  },
  {
    spec: '2 §3 Matrix cell (GraphQL)',
    method: 'POST',
    path: '/graphql',
    body: { query: GQL_MATRIX },
    status: 200,
    at: 'data.matrix.data.0.cells.0',
    fields: MATRIX_CELL,
  },
  {
    spec: '1 §3 emailVerified (GraphQL User)',
    method: 'POST',
    path: '/graphql',
    body: { query: GQL_USERS },
    status: 200,
    at: 'data.users.data.0',
    fields: ['emailVerified', 'email_verified'],
  },
];

let h: Harness;
let headers: Record<string, string>;
let vars: Record<string, string>;
beforeAll(async () => {
  h = await createHarness();
  const group = await buildEntity(h.db, { level: 'A' });
  const home = await buildEntity(h.db, { parentId: group.id });
  const role = await buildRole(h.db, group.id);
  const course = await buildCourse(h.db, group.id, { title: 'Fire safety' });
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
  const learner = await buildUser(h.db, { entityId: group.id, roleId: role.id });
  await buildUser(h.db, { entityId: home.id, roleId: role.id });
  await buildPassedResult(h.db, { userId: learner.id, entityId: group.id, courseId: course.id });
  const h5p = await buildH5p(h.db, group.id);
  const topic = await buildTopic(h.db, group.id, { h5pId: h5p.id });
  // 12 matrix, 13 compliance report, 21 users, 22 entities, 23 contact details, 49 roles, 50 types, 53 see entity,
  // 63 content creator.
  const manager = await buildUser(h.db, {
    entityId: group.id,
    permissions: [12, 13, 21, 22, 23, 49, 50, 53, 63],
  });
  const type = await buildType(h.db, group.id);
  headers = await bearer(h.db, manager.id);
  vars = {
    group: group.slug,
    home: home.slug,
    groupId: String(group.id),
    roleId: String(role.id),
    typeId: String(type.id),
    courseId: String(course.id),
    topicId: String(topic.id),
  };
});
afterAll(async () => h?.close());

const fill = (path: string) => path.replace(/\{(\w+)\}/g, (_, k: string) => vars[k] ?? `{${k}}`);
const dig = (value: unknown, at: string) =>
  at
    .split('.')
    .reduce<unknown>(
      (v, key) => (v === null || v === undefined ? v : (v as Record<string, unknown>)[key]),
      value,
    );

describe('the spec’s calls answer the spec’s names (issue 38)', () => {
  it('checks every call of the table in one pass', async () => {
    const failures: string[] = [];
    const answers = new Map<string, unknown>();
    for (const call of CALLS) {
      const url = fill(call.path);
      const key = `${call.method} ${url} ${JSON.stringify(call.body ?? null)}`;
      let json = answers.get(key);
      if (json === undefined) {
        const res = await h.app.inject({ method: call.method, url, headers, payload: call.body });
        if (res.statusCode !== call.status) {
          failures.push(`${call.spec}: ${call.method} ${url} answered ${res.statusCode}, not ${call.status}`);
          continue;
        }
        json = res.json();
        answers.set(key, json);
      }
      if (call.path.startsWith('/graphql') && (json as { errors?: unknown }).errors)
        failures.push(`${call.spec}: GraphQL errors ${JSON.stringify((json as { errors: unknown }).errors)}`);
      const found = dig(json, call.at);
      if (found === null || typeof found !== 'object') {
        failures.push(`${call.spec}: nothing at ${call.at}`);
        continue;
      }
      const missing = call.fields.filter((f) => !(f in found));
      if (missing.length) failures.push(`${call.spec}: ${call.at} lacks ${missing.join(', ')}`);
    }
    expect(failures).toEqual([]);
  });

  it('answers the aliases with the same values as our names', async () => {
    const compliance = await h.app.inject({
      method: 'GET',
      url: fill('/api/compliance/{home}/role/{roleId}'),
      headers,
    });
    const row = compliance.json().data[0];
    expect([row.roleId, row.courseId]).toEqual([row.role_id, row.course_id]);
    const topic = (await h.app.inject({ method: 'GET', url: fill('/api/topics/{topicId}'), headers })).json()
      .data;
    expect(topic.h5ps).toEqual([topic.h5p]);
    const list = (await h.app.inject({ method: 'GET', url: '/api/entities', headers })).json().data;
    const single = (
      await h.app.inject({ method: 'GET', url: fill('/api/entities/{groupId}'), headers })
    ).json().data;
    expect(list.find((e: { id: number }) => e.id === single.id).children).toEqual(single.children);
    expect(single.children.map((c: { slug: string }) => c.slug)).toEqual([vars.home]);
  });

  it('answers 404 for another organisation under /entities/{slug}/roles|types (stats, details), as a missing one', async () => {
    const elsewhere = await buildEntity(h.db, { level: 'A' });
    const theirRole = await buildRole(h.db, elsewhere.id);
    for (const url of [
      `/api/entities/${elsewhere.slug}/roles/stats`,
      `/api/entities/${elsewhere.slug}/types/stats`,
      `/api/entities/${elsewhere.slug}/roles/${theirRole.id}/details`,
      fill(`/api/entities/{group}/roles/${theirRole.id}/details`),
      `/api/entities/no-such-slug/roles/stats`,
    ])
      expect((await h.app.inject({ method: 'GET', url, headers })).statusCode, url).toBe(404);
    expect(
      (await h.app.inject({ method: 'GET', url: fill('/api/entities/{group}/roles/stats') })).statusCode,
    ).toBe(401);
  });

  it('GET /users lists the organisation’s own people; deep=1 adds its sub-organisations, as documented', async () => {
    const own = (await h.app.inject({ method: 'GET', url: '/api/users?per_page=100', headers })).json();
    const deep = (
      await h.app.inject({ method: 'GET', url: '/api/users?per_page=100&deep=1', headers })
    ).json();
    expect(own.meta.total).toBe(2);
    expect(deep.meta.total).toBe(3);
    const doc = (await h.app.inject({ method: 'GET', url: '/api/docs/json', headers })).json();
    expect(doc.paths['/api/users'].get.description).toMatch(/deep=1 adds its sub-organisations/);
    const patch = JSON.stringify(doc.paths['/api/entities/{id}'].patch);
    expect(patch).toMatch(/Write-only: the restricted-access password is never returned/);
    expect(JSON.stringify(doc.paths['/api/entities/{id}'].get)).toMatch(/Write-only/);
    const entityJson = (
      await h.app.inject({ method: 'GET', url: fill('/api/entities/{groupId}'), headers })
    ).json().data;
    expect(entityJson).not.toHaveProperty('restricted_access_password');
    expect(entityJson).toHaveProperty('has_restricted_access_password');
  });
});

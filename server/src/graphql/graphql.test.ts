import { ACTING_AS_HEADER, Perm } from '@cc/contracts';
import { GraphQLError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser, snapshot, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, webLogin } from '../../test/harness';
import { HttpError } from '../http/errors';
import { INVALID_INPUT, maskError, UNEXPECTED } from './errors';
import { LIMITS } from './limits';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

interface GqlError {
  message: string;
  extensions?: { code?: string; status?: number; validation?: Record<string, string[]> };
}
interface GqlBody {
  data?: Record<string, unknown> | null;
  errors?: GqlError[];
}

async function gql(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
  url = '/graphql',
) {
  const res = await h.app.inject({ method: 'POST', url, headers, payload: { query, variables } });
  return { status: res.statusCode, body: res.json() as GqlBody };
}

const ME = '{ me { id email super_admin primary_entity { slug } permissions { id } } }';

describe('authentication (spec 1 §7: cookie + XSRF, or bearer)', () => {
  it('answers me anonymously with one UNAUTHENTICATED error, on both paths', async () => {
    for (const url of ['/graphql', '/api/graphql']) {
      const { body } = await gql(ME, {}, {}, url);
      expect(body.data).toBeNull();
      expect(body.errors).toHaveLength(1);
      expect(body.errors?.[0].extensions?.code).toBe('UNAUTHENTICATED');
    }
  });

  it('answers me with a bearer token, also at /api/graphql', async () => {
    const user = await buildUser(h.db, { permissions: [Perm.searchUsers] });
    for (const url of ['/graphql', '/api/graphql']) {
      const { body } = await gql(ME, {}, await bearer(h.db, user.id), url);
      expect(body.errors).toBeUndefined();
      expect(body.data?.me).toMatchObject({
        id: String(user.id),
        email: user.email,
        super_admin: false,
        permissions: [{ id: Perm.searchUsers }],
      });
    }
  });

  it('needs the X-XSRF-TOKEN header with a session cookie (419), and works with it', async () => {
    const user = await buildUser(h.db);
    const web = await webLogin(h.app, user.email, TEST_PASSWORD);
    const without = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      cookies: web.cookies(),
      payload: { query: ME },
    });
    expect(without.statusCode).toBe(419);
    const wrong = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      cookies: web.cookies(),
      headers: { 'x-xsrf-token': 'not-the-token' },
      payload: { query: ME },
    });
    expect(wrong.statusCode).toBe(419);
    const withHeader = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      cookies: web.cookies(),
      headers: web.headers(),
      payload: { query: ME },
    });
    expect(withHeader.statusCode).toBe(200);
    expect(withHeader.json().data.me.email).toBe(user.email);
  });
});

describe('paged queries (spec 2 §7: first, page, paginatorInfo.lastPage, data)', () => {
  it('pages users with first and page', async () => {
    const org = await buildEntity(h.db);
    const actor = await buildUser(h.db, { entityId: org.id, permissions: [Perm.searchUsers] });
    for (let i = 0; i < 6; i++) await buildUser(h.db, { entityId: org.id, name: `Member ${i}` });
    // Someone in another organisation never shows up.
    await buildUser(h.db, { name: 'Outsider' });
    const query = `query ($first: Int, $page: Int) {
      users(first: $first, page: $page) {
        data { id name primary_entity { id } }
        paginatorInfo { currentPage lastPage perPage total hasMorePages count firstItem lastItem }
      }
    }`;
    const headers = await bearer(h.db, actor.id);
    const page2 = await gql(query, { first: 3, page: 2 }, headers);
    expect(page2.body.errors).toBeUndefined();
    const users = page2.body.data?.users as {
      data: { id: string; name: string; primary_entity: { id: string } }[];
      paginatorInfo: Record<string, unknown>;
    };
    expect(users.paginatorInfo).toEqual({
      currentPage: 2,
      lastPage: 3,
      perPage: 3,
      total: 7,
      hasMorePages: true,
      count: 3,
      firstItem: 4,
      lastItem: 6,
    });
    expect(users.data).toHaveLength(3);
    expect(users.data.every((u) => u.primary_entity.id === String(org.id))).toBe(true);

    // Walking every page as the client does (until paginatorInfo.lastPage) sees each member once.
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const res = await gql(query, { first: 3, page }, headers);
      for (const u of (res.body.data?.users as typeof users | undefined)?.data ?? []) seen.add(u.name);
    }
    expect(seen.size).toBe(7);
    expect(seen.has('Outsider')).toBe(false);
  });

  it('rejects a page size over the maximum as Invalid input', async () => {
    const actor = await buildUser(h.db, { permissions: [Perm.searchUsers] });
    const { body } = await gql(
      'query ($first: Int) { users(first: $first) { data { id } } }',
      { first: 1000 },
      await bearer(h.db, actor.id),
    );
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0].message).toBe(INVALID_INPUT);
    expect(Object.keys(body.errors?.[0].extensions?.validation ?? {})).toEqual(['per_page']);
  });

  it('lists entities and roles through the same services', async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const home = await buildEntity(h.db, { parentId: group.id, name: 'Home of the group' });
    await buildRole(h.db, group.id, { name: 'Care Assistant' });
    await buildRole(h.db, home.id, { name: 'Night Carer' });
    const actor = await buildUser(h.db, {
      entityId: group.id,
      permissions: [Perm.searchEntities, Perm.viewRoles],
    });
    const { body } = await gql(
      `query ($slug: String!) {
        entities(first: 10, deep: true) { data { slug level } paginatorInfo { total } }
        roles(entity: $slug, first: 10) { data { name inherited } paginatorInfo { total lastPage } }
      }`,
      { slug: home.slug },
      await bearer(h.db, actor.id),
    );
    expect(body.errors).toBeUndefined();
    const entities = body.data?.entities as { data: { slug: string }[]; paginatorInfo: { total: number } };
    expect(entities.data.map((e) => e.slug).sort()).toEqual([group.slug, home.slug].sort());
    const roles = body.data?.roles as { data: { name: string; inherited: boolean }[] };
    expect(roles.data).toEqual(
      expect.arrayContaining([
        { name: 'Care Assistant', inherited: true },
        { name: 'Night Carer', inherited: false },
      ]),
    );
  });

  it('honours the acting-as header (the client’s graphQLActingAs)', async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const home = await buildEntity(h.db, { parentId: group.id });
    const actor = await buildUser(h.db, {
      entityId: group.id,
      permissions: [Perm.searchUsers, Perm.actingAs],
      name: 'Group Admin',
    });
    await buildUser(h.db, { entityId: home.id, name: 'Home Carer' });
    const query = '{ users(first: 50) { data { name } } }';
    const headers = await bearer(h.db, actor.id);
    const names = (b: GqlBody) =>
      (b.data?.users as { data: { name: string }[] } | undefined)?.data.map((u) => u.name);

    const asGroup = await gql(query, {}, headers);
    expect(names(asGroup.body)).toEqual(['Group Admin']);
    const asHome = await gql(query, {}, { ...headers, [ACTING_AS_HEADER]: home.slug });
    expect(names(asHome.body)).toEqual(['Home Carer']);

    const elsewhere = await buildEntity(h.db);
    const outside = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...headers, [ACTING_AS_HEADER]: elsewhere.slug },
      payload: { query },
    });
    expect(outside.statusCode).toBe(404);
  });
});

describe('single reads and tenancy', () => {
  it('answers NOT_FOUND for another organisation’s user and entity', async () => {
    const actor = await buildUser(h.db, { permissions: [Perm.searchUsers, Perm.seeEntity] });
    const outsider = await buildUser(h.db);
    const headers = await bearer(h.db, actor.id);
    const user = await gql(
      'query ($id: ID!) { user(id: $id) { id name } }',
      { id: String(outsider.id) },
      headers,
    );
    expect(user.body.data?.user ?? null).toBeNull();
    expect(user.body.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);

    const entity = await gql(
      'query ($id: ID!) { entity(id: $id) { id } }',
      { id: String(outsider.primary_entity_id) },
      headers,
    );
    expect(entity.body.errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
  });

  it('answers FORBIDDEN without the permission', async () => {
    const actor = await buildUser(h.db, { permissions: [] });
    const { body } = await gql('{ users { data { id } } }', {}, await bearer(h.db, actor.id));
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['FORBIDDEN']);
  });

  it('reads a user in scope by id and by uuid', async () => {
    const org = await buildEntity(h.db);
    const actor = await buildUser(h.db, { entityId: org.id, permissions: [Perm.searchUsers] });
    const member = await buildUser(h.db, { entityId: org.id });
    const headers = await bearer(h.db, actor.id);
    for (const id of [String(member.id), member.uuid]) {
      const { body } = await gql(
        'query ($id: ID!) { user(id: $id) { id uuid a_entity { slug } } }',
        { id },
        headers,
      );
      expect(body.errors).toBeUndefined();
      expect(body.data?.user).toEqual({
        id: String(member.id),
        uuid: member.uuid,
        a_entity: { slug: org.slug },
      });
    }
  });
});

describe('mutations (spec 2 §5: one error "Invalid input" with the field map)', () => {
  const UPSERT_USER = `mutation ($input: UserInput!) {
    upsertUser(input: $input) { id name email primary_entity { id } }
  }`;

  it('answers invalid input with exactly one error and the field map, and changes nothing', async () => {
    const actor = await buildUser(h.db, { permissions: [Perm.addUser, Perm.searchUsers] });
    const before = await snapshot(h.db, 'users');
    const { body } = await gql(
      UPSERT_USER,
      { input: { name: '', email: 'not-an-email' } },
      await bearer(h.db, actor.id),
    );
    expect(body.errors).toHaveLength(1);
    const [error] = body.errors ?? [];
    expect(error.message).toBe(INVALID_INPUT);
    expect(error.extensions?.code).toBe('BAD_USER_INPUT');
    expect(error.extensions?.validation).toEqual({
      name: ['The name field is required.'],
      email: ['The email must be a valid email address.'],
    });
    expect(await snapshot(h.db, 'users')).toBe(before);
  });

  it('reports the service’s own field errors the same way (e-mail taken)', async () => {
    const org = await buildEntity(h.db);
    const actor = await buildUser(h.db, { entityId: org.id, permissions: [Perm.addUser] });
    const { body } = await gql(
      UPSERT_USER,
      { input: { name: 'Copy', email: actor.email, send_welcome_email: false } },
      await bearer(h.db, actor.id),
    );
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0].message).toBe(INVALID_INPUT);
    expect(body.errors?.[0].extensions?.validation?.email).toBeDefined();
  });

  it('creates a user without id, then updates it with id', async () => {
    const org = await buildEntity(h.db);
    const actor = await buildUser(h.db, {
      entityId: org.id,
      permissions: [Perm.addUser, Perm.updateUser, Perm.searchUsers, Perm.contactDetails],
    });
    const headers = await bearer(h.db, actor.id);
    const created = await gql(
      UPSERT_USER,
      { input: { name: 'New Starter', email: 'New.Starter@Example.test', send_welcome_email: false } },
      headers,
    );
    expect(created.body.errors).toBeUndefined();
    const user = created.body.data?.upsertUser as {
      id: string;
      email: string;
      primary_entity: { id: string };
    };
    expect(user).toMatchObject({ name: 'New Starter', email: 'new.starter@example.test' });
    expect(user.primary_entity.id).toBe(String(org.id));

    const updated = await gql(UPSERT_USER, { input: { id: user.id, name: 'Renamed Starter' } }, headers);
    expect(updated.body.errors).toBeUndefined();
    expect(updated.body.data?.upsertUser).toMatchObject({ id: user.id, name: 'Renamed Starter' });
    const row = await h.db
      .selectFrom('users')
      .select('name')
      .where('id', '=', Number(user.id))
      .executeTakeFirst();
    expect(row?.name).toBe('Renamed Starter');
  });

  it('creates and updates an entity through upsertEntity', async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const actor = await buildUser(h.db, {
      entityId: group.id,
      permissions: [Perm.addEntity, Perm.updateEntity, Perm.seeEntity],
    });
    const headers = await bearer(h.db, actor.id);
    const mutation =
      'mutation ($input: EntityInput!) { upsertEntity(input: $input) { id name level parent_id } }';
    const created = await gql(
      mutation,
      { input: { name: 'New Home', level: 'B', parent_id: group.id } },
      headers,
    );
    expect(created.body.errors).toBeUndefined();
    const home = created.body.data?.upsertEntity as { id: string };
    expect(created.body.data?.upsertEntity).toMatchObject({
      name: 'New Home',
      level: 'B',
      parent_id: group.id,
    });

    const renamed = await gql(mutation, { input: { id: home.id, name: 'Renamed Home' } }, headers);
    expect(renamed.body.errors).toBeUndefined();
    expect(renamed.body.data?.upsertEntity).toMatchObject({ id: home.id, name: 'Renamed Home' });

    const invalid = await gql(mutation, { input: { id: home.id, expiry_warning: -1 } }, headers);
    expect(invalid.body.errors).toHaveLength(1);
    expect(invalid.body.errors?.[0].message).toBe(INVALID_INPUT);
    expect(invalid.body.errors?.[0].extensions?.validation).toHaveProperty('expiry_warning');
  });

  it("reads and sets the organisation's Days to complete new requirements (issue 33 §4)", async () => {
    const group = await buildEntity(h.db, { level: 'A' });
    const actor = await buildUser(h.db, {
      entityId: group.id,
      permissions: [Perm.updateEntity, Perm.seeEntity, Perm.starterPeriod],
    });
    const headers = await bearer(h.db, actor.id);
    const mutation =
      'mutation ($input: EntityInput!) { upsertEntity(input: $input) { id new_requirement_days starter_period } }';
    const set = await gql(mutation, { input: { id: String(group.id), new_requirement_days: 21 } }, headers);
    expect(set.body.errors).toBeUndefined();
    expect(set.body.data?.upsertEntity).toMatchObject({ new_requirement_days: 21 });
    const row = await h.db
      .selectFrom('entities')
      .select(['new_requirement_days', 'starter_period'])
      .where('id', '=', group.id)
      .executeTakeFirstOrThrow();
    expect(row.new_requirement_days).toBe(21);
    const read = await gql(
      'query ($id: ID!) { entity(id: $id) { new_requirement_days } }',
      { id: String(group.id) },
      headers,
    );
    expect(read.body.errors).toBeUndefined();
    expect(read.body.data?.entity).toEqual({ new_requirement_days: 21 });

    const invalid = await gql(
      mutation,
      { input: { id: String(group.id), new_requirement_days: 400 } },
      headers,
    );
    expect(invalid.body.errors?.[0].extensions?.validation).toHaveProperty('new_requirement_days');
    // Without the starter-period permission (52) the field is refused, as on PATCH /api/entities/{id}.
    const other = await buildUser(h.db, {
      entityId: group.id,
      permissions: [Perm.updateEntity, Perm.seeEntity],
    });
    const refused = await gql(
      mutation,
      { input: { id: String(group.id), new_requirement_days: 3 } },
      await bearer(h.db, other.id),
    );
    expect(refused.body.errors).toHaveLength(1);
    expect(
      (
        await h.db
          .selectFrom('entities')
          .select('new_requirement_days')
          .where('id', '=', group.id)
          .executeTakeFirstOrThrow()
      ).new_requirement_days,
    ).toBe(21);
  });

  it('answers UNAUTHENTICATED before looking at the input', async () => {
    const { body } = await gql(UPSERT_USER, { input: { name: '', email: 'x' } });
    expect(body.errors?.map((e) => e.extensions?.code)).toEqual(['UNAUTHENTICATED']);
  });
});

describe('limits', () => {
  it(`refuses a query deeper than ${LIMITS.depth}`, async () => {
    const actor = await buildUser(h.db);
    let selection = 'name';
    for (let i = 0; i < 9; i++) selection = `ofType { ${selection} }`;
    const deep = `{ __type(name: "User") { fields { type { ${selection} } } } }`;
    const { body } = await gql(deep, {}, await bearer(h.db, actor.id));
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0].message).toMatch(new RegExp(`depth limit of ${LIMITS.depth} exceeded`));

    // The same shape within the limit runs.
    let shallow = 'name';
    for (let i = 0; i < 5; i++) shallow = `ofType { ${shallow} }`;
    const ok = await gql(
      `{ __type(name: "User") { fields { type { ${shallow} } } } }`,
      {},
      await bearer(h.db, actor.id),
    );
    expect(ok.body.errors).toBeUndefined();
  });

  it(`refuses a query costing more than ${LIMITS.cost}`, async () => {
    const actor = await buildUser(h.db, { permissions: [Perm.searchEntities] });
    const fields =
      'id uuid slug name level parent_id subdomain email code telephone website address events_reminder ' +
      'expiry_warning starter_period created_at updated_at parent { id slug name level } children { id slug name }';
    const aliases = Array.from(
      { length: LIMITS.aliases },
      (_, i) => `e${i}: entities(first: 100) { data { ${fields} } paginatorInfo { total lastPage } }`,
    );
    const headers = await bearer(h.db, actor.id);
    const { body } = await gql(`{ ${aliases.join(' ')} }`, {}, headers);
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0].message).toMatch(new RegExp(`cost limit of ${LIMITS.cost} exceeded`, 'i'));

    // One full page, as the client's fetch-all asks for it, is within the limit.
    const one = await gql(`{ ${aliases[0]} }`, {}, headers);
    expect(one.body.errors).toBeUndefined();
    expect(one.body.data).toHaveProperty('e0.paginatorInfo.total');
  });

  it(`refuses more than ${LIMITS.aliases} aliases`, async () => {
    const actor = await buildUser(h.db);
    const aliases = Array.from({ length: LIMITS.aliases + 1 }, (_, i) => `a${i}: me { id }`).join(' ');
    const { body } = await gql(`{ ${aliases} }`, {}, await bearer(h.db, actor.id));
    expect(body.data ?? null).toBeNull();
    expect(body.errors?.[0].message).toMatch(new RegExp(`aliases limit of ${LIMITS.aliases} exceeded`, 'i'));
  });

  it('refuses a malformed id as input before any service runs', async () => {
    const actor = await buildUser(h.db);
    const { body } = await gql('{ entity(id: "%%%") { id } }', {}, await bearer(h.db, actor.id));
    expect(body.errors).toHaveLength(1);
    expect(body.errors?.[0].message).toBe(INVALID_INPUT);
    expect(body.errors?.[0].extensions?.validation).toHaveProperty('id');
  });
});

describe('error masking', () => {
  it('masks an unexpected error and logs it; keeps a service error with its code', () => {
    const logged: unknown[] = [];
    const leak = new Error('relation "users" does not exist at /srv/app/queries.ts');
    const masked = maskError(new GraphQLError(leak.message, { originalError: leak }), '', false, (e) =>
      logged.push(e),
    );
    expect(masked.message).toBe(UNEXPECTED);
    expect((masked as GraphQLError).extensions).toEqual({ code: 'INTERNAL_SERVER_ERROR' });
    expect(logged).toEqual([leak]);

    const conflict = maskError(
      new GraphQLError('x', { originalError: new HttpError(409, 'Already done.') }),
      '',
    );
    expect(conflict.message).toBe('Already done.');
    expect((conflict as GraphQLError).extensions).toEqual({ code: 'CONFLICT', status: 409 });
  });
});

describe('multipart uploads (GraphQL multipart request spec: operations + map)', () => {
  // A 1x1 PNG.
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  );

  function multipart(
    operations: unknown,
    map: unknown,
    files: { name: string; filename: string; type: string; bytes: Buffer }[],
  ) {
    const boundary = `----cc${Date.now()}`;
    const parts: Buffer[] = [];
    const field = (name: string, value: string) =>
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
      );
    field('operations', JSON.stringify(operations));
    field('map', JSON.stringify(map));
    for (const f of files) {
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${f.name}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`,
        ),
        f.bytes,
        Buffer.from('\r\n'),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
  }

  const UPLOAD = `mutation ($entity: String!, $logo: Upload, $settings: JSON) {
    updateWhitelabel(entity: $entity, logo: $logo, settings: $settings)
  }`;

  it('uploads a white-label logo through a mutation and serves it back', async () => {
    const org = await buildEntity(h.db);
    const actor = await buildUser(h.db, { entityId: org.id, permissions: [Perm.whiteLabel] });
    const body = multipart(
      { query: UPLOAD, variables: { entity: org.slug, logo: null, settings: {} } },
      { 0: ['variables.logo'] },
      [{ name: '0', filename: 'logo.png', type: 'image/png', bytes: PNG }],
    );
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...(await bearer(h.db, actor.id)), 'content-type': body.contentType },
      payload: body.payload,
    });
    expect(res.statusCode).toBe(200);
    const json = res.json() as GqlBody;
    expect(json.errors).toBeUndefined();
    const whitelabel = json.data?.updateWhitelabel as { logo: string | null; entity: { slug: string } };
    expect(whitelabel.entity.slug).toBe(org.slug);
    expect(whitelabel.logo).toBeTruthy();

    const stored = await h.db
      .selectFrom('files')
      .select(['mime_type', 'size_bytes', 'original_name'])
      .where('entity_id', '=', org.id)
      .execute();
    expect(stored).toEqual([{ mime_type: 'image/png', size_bytes: PNG.length, original_name: 'logo.png' }]);
  });

  it('refuses a file that is not an image as Invalid input', async () => {
    const org = await buildEntity(h.db);
    const actor = await buildUser(h.db, { entityId: org.id, permissions: [Perm.whiteLabel] });
    const body = multipart(
      { query: UPLOAD, variables: { entity: org.slug, logo: null } },
      { 0: ['variables.logo'] },
      [
        {
          name: '0',
          filename: 'logo.png',
          type: 'image/png',
          bytes: Buffer.from('<script>alert(1)</script>'),
        },
      ],
    );
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...(await bearer(h.db, actor.id)), 'content-type': body.contentType },
      payload: body.payload,
    });
    const json = res.json() as GqlBody;
    expect(json.errors).toHaveLength(1);
    expect(json.errors?.[0].message).toBe(INVALID_INPUT);
    expect(json.errors?.[0].extensions?.validation).toHaveProperty('logo');
  });

  it('answers NOT_FOUND for another organisation and stores nothing', async () => {
    const actor = await buildUser(h.db, { permissions: [Perm.whiteLabel] });
    const other = await buildEntity(h.db);
    const before = await snapshot(h.db, 'entities');
    const body = multipart(
      { query: UPLOAD, variables: { entity: other.slug, logo: null } },
      { 0: ['variables.logo'] },
      [{ name: '0', filename: 'logo.png', type: 'image/png', bytes: PNG }],
    );
    const res = await h.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { ...(await bearer(h.db, actor.id)), 'content-type': body.contentType },
      payload: body.payload,
    });
    expect((res.json() as GqlBody).errors?.map((e) => e.extensions?.code)).toEqual(['NOT_FOUND']);
    expect(await snapshot(h.db, 'entities')).toBe(before);
  });
});

/**
 * Nobody ends up giving more than they hold (issue 11 "Tests that keep it true"), generated over every door that
 * assigns a user type, a job role or a permission, or edits a user: the REST operations of the OpenAPI document the
 * server serves (/api/docs/json) and the GraphQL mutations of its schema. Each is driven by a manager who holds a
 * small set of permissions and tries to give or touch more: the answer must be a refusal (403 or 422; a GraphQL
 * error) and the permission tables, the users and the mail outbox must be unchanged. A control attempt within the
 * manager's bounds must then succeed, so each refusal is the privilege rule's and not a missing base permission.
 *
 * An operation is picked up when its body has an assigning field (ASSIGNING_FIELDS), its path edits a user
 * (/api/users/{id}...) or names permissions; a mutation when its arguments or input fields have an assigning field
 * or its name names users or permissions. One without an entry in the table fails the coverage tests, so a new
 * assigning route cannot be added unchecked; an operation that matches but assigns nothing is listed in
 * NOT_ASSIGNING with the reason.
 */
import { PERMISSIONS, Perm } from '@cc/contracts';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildType, buildUser, clientFor } from '../../test/factories';
import { createHarness } from '../../test/harness';

const ASSIGNING_FIELDS = [
  'type_id',
  'type_ids',
  'role_id',
  'role_ids',
  'roleId',
  'permission_id',
  'permission_ids',
  'permissions',
  'super_admin',
];

const h = await createHarness();
afterAll(async () => h.close());

// --- The world: an organisation, its administrator type and a manager with a small set ----------------------------

const ALL = PERMISSIONS.map((p) => p.id);
/** What the manager holds: users (3, 4, 5, 18, 21, 23, 99), acting as (19), permissions (45, 46, 70, 78), self (127). */
const MANAGER = [3, 4, 5, 18, 19, 21, 23, 45, 46, 70, 78, 99, 127];
const NOT_HELD = Perm.addEntity; // 1: the administrator type gives it, the manager lacks it
const HELD = Perm.selfUpdate; // 127

const org = await buildEntity(h.db);
const site = await buildEntity(h.db, { parentId: org.id });
/** A site that allows only 127: an entity whose permissions the manager could try to widen. */
const narrowSite = await buildEntity(h.db, { parentId: org.id, allowed: [HELD] });
const adminType = await buildType(h.db, org.id, { name: 'Administrator', permissions: ALL });
const learnerType = await buildType(h.db, org.id, { name: 'Learner', permissions: [HELD] });
const manager = await buildUser(h.db, { entityId: org.id, permissions: MANAGER, name: 'Manager' });
const groupAdmin = await buildUser(h.db, { entityId: org.id, name: 'Group Admin' });
await h.db.updateTable('users').set({ type_id: adminType.id }).where('id', '=', groupAdmin.id).execute();
const learner = await buildUser(h.db, { entityId: site.id, name: 'Learner' });
/** The job role sign-up links give new starters (issue 18). */
const carerRole = await buildRole(h.db, org.id, { name: 'Carer' });
const linkBody = (typeId: number) => ({
  entity_id: site.id,
  role_id: carerRole.id,
  type_id: typeId,
  start_date: '2030-01-07',
});
/** In the narrow site: a grant of 1 there gives nothing (the site does not allow it), so they stay below. */
const narrowLearner = await buildUser(h.db, { entityId: narrowSite.id, name: 'Narrow Learner' });
await h.db
  .updateTable('users')
  .set({ type_id: learnerType.id })
  .where('id', 'in', [learner.id, narrowLearner.id])
  .execute();

/** Data protection (issue 35 §4): a learner who has left (erasable) and the administrator marked as left too, so
 * erasing them is refused for being above the manager, not for a missing leaving date. */
const leaver = await buildUser(h.db, { entityId: site.id, name: 'Leaver' });
await h.db
  .updateTable('users')
  .set({ type_id: learnerType.id, left_on: '2026-01-31' })
  .where('id', '=', leaver.id)
  .execute();
await h.db.updateTable('users').set({ left_on: '2026-01-31' }).where('id', '=', groupAdmin.id).execute();

async function grant(userId: number, permissionId: number): Promise<number> {
  const row = await h.db
    .insertInto('user_permissions')
    .values({ user_id: userId, permission_id: permissionId })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
/** Grants to edit: the administrator's (above the manager), a learner's of 1 (not held) and of 21 (held). */
const adminGrant = await grant(groupAdmin.id, Perm.searchUsers);
const learnerGrantNotHeld = await grant(narrowLearner.id, NOT_HELD);
const learnerGrantHeld = await grant(learner.id, Perm.searchUsers);

const call = await clientFor(h.app, h.db, manager.id);
const managerHeaders = await bearer(h.db, manager.id);
async function gql(query: string, variables: Record<string, unknown> = {}) {
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: managerHeaders,
    payload: { query, variables },
  });
  return res.json() as { data?: Record<string, unknown> | null; errors?: { message: string }[] };
}

/** Everything a privilege change could write, and the addresses mail could reach. */
async function state(): Promise<string> {
  const tables = [
    'users',
    'entity_permissions',
    'type_permissions',
    'user_permissions',
    'user_tokens',
  ] as const;
  const rows = await Promise.all(
    tables.map((t) =>
      h.db
        .selectFrom(t)
        .selectAll()
        .execute()
        .then((r) => JSON.stringify(r.map((x) => ({ ...x, updated_at: undefined })))),
    ),
  );
  const mail = await sql<{ n: number }>`SELECT count(*)::int AS n FROM mail_outbox`.execute(h.db);
  return JSON.stringify([...rows, mail.rows[0]?.n]);
}

// --- The table ---------------------------------------------------------------------------------------------------

type Outcome = { refused: boolean; detail: string };
interface Attempt {
  what: string;
  run(): Promise<Outcome>;
}
interface Case {
  /** Attempts to give or touch more than the manager holds: each refused, nothing written. */
  refused: Attempt[];
  /** The same door within the manager's bounds: allowed. */
  allowed: Attempt;
}

const rest =
  (method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, body?: object) => async (): Promise<Outcome> => {
    const res = await call(method, url, body);
    return {
      refused: res.statusCode === 403 || res.statusCode === 422,
      detail: `${res.statusCode} ${res.body}`,
    };
  };
const graphql = (query: string, variables: Record<string, unknown>) => async (): Promise<Outcome> => {
  const res = await gql(query, variables);
  return { refused: (res.errors?.length ?? 0) > 0, detail: JSON.stringify(res) };
};
const attempt = (what: string, run: () => Promise<Outcome>): Attempt => ({ what, run });
let n = 0;
const email = () => `new-${++n}@example.test`;

const CASES: Record<string, Case> = {
  // Sign-up links (issue 18): the user type a new starter gets through the link is given by the manager who made it.
  'POST /api/signup-links': {
    refused: [
      attempt(
        'make a link that gives new starters the administrator type',
        rest('POST', '/api/signup-links', linkBody(adminType.id)),
      ),
    ],
    allowed: attempt('make a link for learners', rest('POST', '/api/signup-links', linkBody(learnerType.id))),
  },
  'mutation createSignUpLink': {
    refused: [
      attempt(
        'make a link that gives new starters the administrator type',
        graphql('mutation ($input: CreateSignUpLinkInput!) { createSignUpLink(input: $input) { id } }', {
          input: linkBody(adminType.id),
        }),
      ),
    ],
    allowed: attempt(
      'make a link for learners',
      graphql('mutation ($input: CreateSignUpLinkInput!) { createSignUpLink(input: $input) { id } }', {
        input: linkBody(learnerType.id),
      }),
    ),
  },
  'POST /api/users': {
    refused: [
      attempt(
        'create a user with the administrator type',
        rest('POST', '/api/users', { name: 'Mallory', email: email(), type_id: adminType.id }),
      ),
    ],
    allowed: attempt(
      'create a learner',
      rest('POST', '/api/users', { name: 'Lena', email: email(), type_id: learnerType.id }),
    ),
  },
  'PATCH /api/users/{id}': {
    refused: [
      attempt(
        'give a learner the administrator type',
        rest('PATCH', `/api/users/${learner.id}`, { type_id: adminType.id }),
      ),
      attempt(
        'change the administrator’s e-mail',
        rest('PATCH', `/api/users/${groupAdmin.id}`, { email: email() }),
      ),
      attempt('rename the administrator', rest('PATCH', `/api/users/${groupAdmin.id}`, { name: 'Owned' })),
      attempt(
        'move the administrator to a site',
        rest('PATCH', `/api/users/${groupAdmin.uuid}`, { primary_entity_id: site.id }),
      ),
    ],
    allowed: attempt('rename the learner', rest('PATCH', `/api/users/${learner.id}`, { name: 'Learner 2' })),
  },
  'PUT /api/users/{id}/leaving-date': {
    refused: [
      attempt(
        'set the administrator’s leaving date',
        rest('PUT', `/api/users/${groupAdmin.id}/leaving-date`, { left_on: '2026-02-01' }),
      ),
    ],
    allowed: attempt(
      'set the learner’s',
      rest('PUT', `/api/users/${learner.id}/leaving-date`, { left_on: '2026-02-01' }),
    ),
  },
  'POST /api/users/{id}/erase': {
    refused: [
      attempt(
        'erase the administrator’s personal details',
        rest('POST', `/api/users/${groupAdmin.id}/erase`, { confirm_name: 'Group Admin' }),
      ),
    ],
    allowed: attempt(
      'erase a learner who has left',
      rest('POST', `/api/users/${leaver.id}/erase`, { confirm_name: 'Leaver' }),
    ),
  },
  'POST /api/users/{id}/send-welcome-email': {
    refused: [
      attempt(
        'send the administrator a set-your-password link',
        rest('POST', `/api/users/${groupAdmin.id}/send-welcome-email`),
      ),
    ],
    allowed: attempt('send the learner one', rest('POST', `/api/users/${learner.id}/send-welcome-email`)),
  },
  'POST /api/entity-permissions': {
    refused: [
      attempt(
        'allow a site a permission the manager lacks',
        rest('POST', '/api/entity-permissions', { entity: narrowSite.slug, permission_ids: [NOT_HELD] }),
      ),
    ],
    allowed: attempt(
      'allow it one the manager holds',
      rest('POST', '/api/entity-permissions', {
        entity: narrowSite.slug,
        permission_ids: [Perm.searchUsers],
      }),
    ),
  },
  'POST /api/entity-permissions/{slug}/delete': {
    refused: [
      attempt(
        'take a permission the manager lacks from a site',
        rest('POST', `/api/entity-permissions/${site.slug}/delete`, { permission_ids: [NOT_HELD] }),
      ),
    ],
    allowed: attempt(
      'take one the manager holds',
      rest('POST', `/api/entity-permissions/${narrowSite.slug}/delete`, {
        permission_ids: [Perm.searchUsers],
      }),
    ),
  },
  'POST /api/type-permissions/{typeId}': {
    refused: [
      attempt(
        'add a permission the manager lacks to the learner type',
        rest('POST', `/api/type-permissions/${learnerType.id}`, { permission_ids: [NOT_HELD] }),
      ),
    ],
    allowed: attempt(
      'add one the manager holds',
      rest('POST', `/api/type-permissions/${learnerType.id}`, { permission_ids: [Perm.searchUsers] }),
    ),
  },
  'POST /api/type-permissions/{typeId}/delete': {
    refused: [
      attempt(
        'take a permission the manager lacks from the learner type',
        rest('POST', `/api/type-permissions/${learnerType.id}/delete`, { permission_ids: [NOT_HELD] }),
      ),
      attempt(
        'cut down the administrator type',
        rest('POST', `/api/type-permissions/${adminType.id}/delete`, { permission_ids: [HELD] }),
      ),
    ],
    allowed: attempt(
      'take one the manager holds from the learner type',
      rest('POST', `/api/type-permissions/${learnerType.id}/delete`, { permission_ids: [Perm.searchUsers] }),
    ),
  },
  'POST /api/permissions': {
    refused: [
      attempt(
        'grant a learner a permission the manager lacks',
        rest('POST', '/api/permissions', { user_id: learner.id, permission_id: Perm.updateEntity }),
      ),
      attempt(
        'grant the administrator anything',
        rest('POST', '/api/permissions', { user_id: groupAdmin.id, permission_id: Perm.contactDetails }),
      ),
    ],
    allowed: attempt(
      'grant a learner one the manager holds',
      rest('POST', '/api/permissions', { user_id: learner.id, permission_id: Perm.contactDetails }),
    ),
  },
  'PATCH /api/permissions/{id}': {
    refused: [
      attempt(
        'turn a learner’s grant into one the manager lacks',
        rest('PATCH', `/api/permissions/${learnerGrantHeld}`, { permission_id: Perm.updateEntity }),
      ),
      attempt(
        'turn a grant of a permission the manager lacks into another',
        rest('PATCH', `/api/permissions/${learnerGrantNotHeld}`, { permission_id: Perm.seeUserPermissions }),
      ),
      attempt(
        'change the administrator’s grant',
        rest('PATCH', `/api/permissions/${adminGrant}`, { permission_id: Perm.contactDetails }),
      ),
    ],
    allowed: attempt(
      'turn a learner’s grant into another held one',
      rest('PATCH', `/api/permissions/${learnerGrantHeld}`, { permission_id: Perm.seeUserPermissions }),
    ),
  },
  'DELETE /api/permissions/{id}': {
    refused: [
      attempt('delete the administrator’s grant', rest('DELETE', `/api/permissions/${adminGrant}`)),
      attempt(
        'delete a grant of a permission the manager lacks',
        rest('DELETE', `/api/permissions/${learnerGrantNotHeld}`),
      ),
    ],
    allowed: attempt('delete a learner’s held grant', rest('DELETE', `/api/permissions/${learnerGrantHeld}`)),
  },
  'mutation upsertUser': {
    refused: [
      attempt(
        'create a user with the administrator type',
        graphql('mutation ($input: UserInput!) { upsertUser(input: $input) { id } }', {
          input: { name: 'Mallory', email: email(), type_id: adminType.id },
        }),
      ),
      attempt(
        'give a learner the administrator type',
        graphql('mutation ($input: UserInput!) { upsertUser(input: $input) { id } }', {
          input: { id: String(learner.id), type_id: adminType.id },
        }),
      ),
      attempt(
        'change the administrator’s e-mail',
        graphql('mutation ($input: UserInput!) { upsertUser(input: $input) { id } }', {
          input: { id: groupAdmin.uuid, email: email() },
        }),
      ),
    ],
    allowed: attempt(
      'rename the learner',
      graphql('mutation ($input: UserInput!) { upsertUser(input: $input) { id } }', {
        input: { id: String(learner.id), name: 'Learner 3' },
      }),
    ),
  },
};

/** Operations the selection picks up that assign no type, role or permission and edit no account, with why. */
const NOT_ASSIGNING: Record<string, string> = {
  'POST /api/auth/permission-check': 'answers whether the caller holds given permissions; writes nothing',
  'POST /api/compliance': 'roleId names the job role a compliance rule is for; it assigns nothing to anyone',
  'PUT /api/documents/{id}/requirements':
    'role_ids name the job roles that must read a document (compliance rules); it assigns nothing to anyone',
  'mutation allocatePathwayToRole':
    'roleId names the job role whose members get a pathway (a learning plan); it assigns no role, type or permission',
  'POST /api/users/{id}/attempts': 'starts a learning attempt; no account field',
  'PATCH /api/users/{id}/compliance-courses/{courseId}':
    'exempts a user from a course (a training record, permission-checked in compliance); no account field',
  'POST /api/users/{id}/message': "sends a message from the caller's own mailbox; no account field",
  'POST /api/users/{id}/calendar-feed': "makes the caller's own calendar link; no account field",
  'DELETE /api/users/{id}/calendar-feed': "revokes the caller's own calendar link; no account field",
  'DELETE /api/users/{id}/messages/{messageId}':
    "deletes the caller's own copy of a message; no account field",
  'PATCH /api/users/{id}/received/messages/{messageId}':
    "marks a message of the caller's own mailbox read or unread; no account field",
};

// --- Enumeration -------------------------------------------------------------------------------------------------

async function restOperations(): Promise<string[]> {
  const res = await h.app.inject({ method: 'GET', url: '/api/docs/json' });
  const doc = res.json() as {
    paths: Record<
      string,
      Record<string, { requestBody?: { content?: Record<string, { schema?: object }> } }>
    >;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([method]) => method !== 'get' && method !== 'head')
      .filter(([, op]) => {
        const schema = op.requestBody?.content?.['application/json']?.schema as
          | { properties?: Record<string, unknown> }
          | undefined;
        const fields = Object.keys(schema?.properties ?? {});
        return (
          fields.some((f) => ASSIGNING_FIELDS.includes(f)) ||
          /^\/api\/users\/\{id\}/.test(path) ||
          /permission/.test(path)
        );
      })
      .map(([method]) => `${method.toUpperCase()} ${path}`),
  );
}

interface TypeRef {
  name: string | null;
  ofType?: TypeRef | null;
}
const named = (t: TypeRef | null | undefined): string | null => (t ? (t.name ?? named(t.ofType)) : null);

async function graphqlMutations(): Promise<string[]> {
  const res = await h.app.inject({
    method: 'POST',
    url: '/graphql',
    headers: managerHeaders,
    payload: {
      query: `{ __schema {
        types { name inputFields { name } }
        mutationType { fields { name args { name type { name ofType { name ofType { name } } } } } }
      } }`,
    },
  });
  const schema = res.json().data.__schema as {
    types: { name: string; inputFields: { name: string }[] | null }[];
    mutationType: { fields: { name: string; args: { name: string; type: TypeRef }[] }[] };
  };
  const inputFields = new Map(schema.types.map((t) => [t.name, (t.inputFields ?? []).map((f) => f.name)]));
  return schema.mutationType.fields
    .filter((m) => {
      const fields = m.args.flatMap((a) => [a.name, ...(inputFields.get(named(a.type) ?? '') ?? [])]);
      return fields.some((f) => ASSIGNING_FIELDS.includes(f)) || /user|permission|grant/i.test(m.name);
    })
    .map((m) => `mutation ${m.name}`);
}

const operations = [...(await restOperations()), ...(await graphqlMutations())].sort();

describe('the privilege table', () => {
  it('covers every operation that assigns types, roles or permissions or edits a user, and nothing else', () => {
    expect(operations.length).toBeGreaterThan(8);
    expect(
      operations.filter((k) => !CASES[k] && !NOT_ASSIGNING[k]),
      'assigning operations without an entry',
    ).toEqual([]);
    expect(
      [...Object.keys(CASES), ...Object.keys(NOT_ASSIGNING)].filter((k) => !operations.includes(k)),
      'entries for operations the server does not have',
    ).toEqual([]);
  });
});

for (const [key, c] of Object.entries(CASES)) {
  describe(key, () => {
    for (const a of c.refused) {
      it(`refuses to ${a.what}, and writes nothing`, async () => {
        const before = await state();
        const outcome = await a.run();
        expect(outcome.refused, outcome.detail).toBe(true);
        expect(await state()).toBe(before);
      });
    }
    it(`lets the manager ${c.allowed.what} (the refusals are the privilege rule's)`, async () => {
      const outcome = await c.allowed.run();
      expect(outcome.refused, outcome.detail).toBe(false);
    });
  });
}

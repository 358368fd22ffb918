import {
  BehindMessages,
  type BehindPerson,
  type BehindSummary,
  calendarDay,
  DocumentMessages,
  LibraryPerm,
  PathwayPerm,
} from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { buildCertificate, buildVersion } from '../care-certificate/approval-world';
import { makeDocument, makeLibrary, open } from '../documents/fixtures';
import { course } from '../pathways/fixtures';

/**
 * Issue 33 §7: who is behind at a home, on the Care Certificate (in progress, past its expected date), pathways (a
 * step overdue) and documents to read (not read, past the due date: the one course status's out of date), in one
 * list per home, scoped; "Remind" through the ledger, once per person, thing and day. On PostgreSQL.
 */
const NOW = new Date();
const DAY = 86_400_000;
const dayOf = (days: number) => new Date(NOW.getTime() + days * DAY).toISOString().slice(0, 10);
const OLD_START = dayOf(-400);

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  h.deps.clock = () => NOW;
});
afterAll(async () => h?.close());

const MANAGER_PERMS = [
  ...new Set([105, 86, ...PathwayPerm.view, PathwayPerm.allocate, ...Object.values(LibraryPerm), 39]),
];

async function world() {
  const group = await buildEntity(h.db, { level: 'A', name: 'Oak Care' });
  const home = await buildEntity(h.db, { level: 'B', parentId: group.id, name: 'Oak Home' });
  const ash = await buildEntity(h.db, { level: 'B', parentId: group.id, name: 'Ash Home' });
  const carer = await buildRole(h.db, group.id, { name: 'Carer' });
  const manager = await buildUser(h.db, {
    entityId: group.id,
    permissions: MANAGER_PERMS,
    name: 'Mo Manager',
  });
  const person = (name: string, entityId: number) =>
    buildUser(h.db, { entityId, roleId: carer.id, startDate: OLD_START, name });
  const ann = await person('Ann Abbot', home.id);
  const bob = await person('Bob Brown', home.id);
  const cat = await person('Cat Cole', ash.id);
  const other = await buildEntity(h.db, { level: 'A', name: 'Elm Care' });
  const outsider = await buildUser(h.db, { entityId: other.id, permissions: MANAGER_PERMS });
  const stranger = await buildUser(h.db, { entityId: other.id, startDate: OLD_START });

  // Care Certificate: Ann's is 36 days past its expected date; Bob's is expected in 30 days; a stranger's elsewhere.
  const version = await buildVersion(h.db);
  const annCert = await buildCertificate(h.db, {
    userId: ann.id,
    versionId: version.id,
    startedOn: dayOf(-120),
    expectedBy: dayOf(-36),
  });
  await buildCertificate(h.db, {
    userId: bob.id,
    versionId: version.id,
    startedOn: dayOf(-54),
    expectedBy: dayOf(30),
  });
  await buildCertificate(h.db, {
    userId: stranger.id,
    versionId: version.id,
    startedOn: dayOf(-120),
    expectedBy: dayOf(-36),
  });

  const m = await clientFor(h.app, h.db, manager.id);
  // A pathway whose first step is due 7 days after allocation: Ann and Cat were allocated 10 days ago.
  const a = await course(h.db, group.id, 'Moving and handling');
  const b = await course(h.db, group.id, 'Infection control');
  const created = await m('POST', '/api/pathways', {
    title: 'Induction',
    sequential: true,
    requires_final_sign_off: false,
    steps: [
      { type: 'course', course_id: a.id, due_days: 7 },
      { type: 'course', course_id: b.id },
    ],
  });
  expect(created.statusCode, created.body).toBe(201);
  const pathway = created.json().data as { id: number };
  const allocated = await m('POST', `/api/pathways/${pathway.id}/allocations`, {
    user_ids: [ann.id, cat.id],
  });
  expect(allocated.statusCode, allocated.body).toBe(201);
  await h.db
    .updateTable('pathway_allocations')
    .set({ allocated_at: new Date(NOW.getTime() - 10 * DAY) })
    .where('pathway_id', '=', pathway.id)
    .execute();

  // Documents: one required of carers at Oak Home at once (0 days), one with 30 days to read it.
  const library = await makeLibrary(h, manager.id);
  const policy = await makeDocument(h, manager.id, library.id, { title: 'Safeguarding policy' });
  const fresh = await makeDocument(h, manager.id, library.id, { title: 'Fire procedure' });
  for (const [doc, grace_days] of [
    [policy, 0],
    [fresh, 30],
  ] as const) {
    const res = await m('PUT', `/api/documents/${doc.id}/requirements`, {
      entity: home.slug,
      role_ids: [carer.id],
      grace_days,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
  return {
    group,
    home,
    ash,
    carer,
    manager,
    ann,
    bob,
    cat,
    other,
    outsider,
    annCert,
    pathway,
    policy,
    fresh,
    m,
  };
}
type World = Awaited<ReturnType<typeof world>>;
let w: World;
beforeAll(async () => {
  w = await world();
});

const summary = async (client: World['m'], entity: string) => {
  const res = await client('GET', `/api/dashboards/manager/behind?entity=${entity}`);
  return { status: res.statusCode, data: res.json().data as BehindSummary };
};
const people = async (client: World['m'], query: string) => {
  const res = await client('GET', `/api/dashboards/manager/behind/people?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: BehindPerson[]; meta: { total: number; last_page: number } };
};

describe('who is behind at a home', () => {
  it('counts the people behind per kind, with each kind’s own definition', async () => {
    const { status, data } = await summary(w.m, w.group.slug);
    expect(status).toBe(200);
    expect(data.entity).toMatchObject({ id: w.group.id, name: 'Oak Care' });
    // Ann: certificate, pathway and the policy; Bob: the policy (his certificate is not due yet); Cat: the pathway.
    // The Fire procedure is due in 30 days: nobody is behind on it.
    expect(data.counts).toEqual({ care_certificate: 1, pathway: 2, document: 2 });
    expect(data.people).toBe(3);
    // One home: only its own people.
    expect((await summary(w.m, w.ash.slug)).data).toMatchObject({
      people: 1,
      counts: { care_certificate: 0, pathway: 1, document: 0 },
    });
  });

  it('lists each person with what they are behind on, longest overdue first', async () => {
    const list = await people(w.m, `entity=${w.group.slug}`);
    expect(list.meta.total).toBe(3);
    expect(list.data.map((p) => p.name)).toEqual(['Ann Abbot', 'Cat Cole', 'Bob Brown']);
    const ann = list.data[0] as BehindPerson;
    expect(ann).toMatchObject({
      uuid: w.ann.uuid,
      role: 'Carer',
      entity: { id: w.home.id, name: 'Oak Home' },
    });
    expect(ann.items.map((i) => [i.kind, i.title])).toEqual([
      ['care_certificate', expect.stringMatching(/^Test version/)],
      ['pathway', 'Induction'],
      ['document', 'Safeguarding policy'],
    ]);
    expect(ann.items[0]).toMatchObject({
      due: dayOf(-36),
      detail: '0 of 2 standards approved',
      href: `/care-certificate/${w.annCert.uuid}`,
    });
    // Due 7 days after the UK day of the allocation (10 days ago): from 23:00 UTC in summer time that is not the
    // UTC date of 3 days ago.
    const allocatedOn = calendarDay(new Date(NOW.getTime() - 10 * DAY));
    expect(ann.items[1]).toMatchObject({
      due: new Date(Date.parse(`${allocatedOn}T00:00:00Z`) + 7 * DAY).toISOString().slice(0, 10),
      detail: 'Step ‘Moving and handling’ overdue (0 of 2 done)',
      href: `/pathways/${w.pathway.id}`,
    });
    expect(ann.items[2]).toMatchObject({ detail: 'Never read', href: `/document/${w.policy.id}` });
    // One kind at a time, paged.
    const docs = await people(w.m, `entity=${w.group.slug}&kind=document`);
    expect(docs.data.map((p) => p.name)).toEqual(['Ann Abbot', 'Bob Brown']);
    expect(docs.data.every((p) => p.items.every((i) => i.kind === 'document'))).toBe(true);
    const page2 = await people(w.m, `entity=${w.group.slug}&per_page=2&page=2`);
    expect(page2.data.map((p) => p.name)).toEqual(['Bob Brown']);
    expect(page2.meta.last_page).toBe(2);
  });

  it('a person who reads the document leaves the documents list', async () => {
    const d = await buildUser(h.db, {
      entityId: w.home.id,
      roleId: w.carer.id,
      startDate: OLD_START,
      name: 'Dee',
    });
    expect((await people(w.m, `entity=${w.home.slug}&kind=document`)).data.map((p) => p.name)).toContain(
      'Dee',
    );
    await open(h, d.id, w.policy.id);
    const ack = await (await clientFor(h.app, h.db, d.id))(
      'POST',
      `/api/documents/${w.policy.id}/acknowledge`,
      {
        typed_name: 'Dee',
        version: 1,
      },
    );
    expect(ack.statusCode, ack.body).toBe(201);
    expect((await people(w.m, `entity=${w.home.slug}&kind=document`)).data.map((p) => p.name)).not.toContain(
      'Dee',
    );
  });

  it('is tenant-scoped: another organisation’s home is a 404; 403 without 105; kinds need their own permission', async () => {
    const outsider = await clientFor(h.app, h.db, w.outsider.id);
    expect((await summary(outsider, w.group.slug)).status).toBe(404);
    expect(
      (await outsider('GET', `/api/dashboards/manager/behind/people?entity=${w.home.id}`)).statusCode,
    ).toBe(404);
    expect(
      (await outsider('POST', '/api/dashboards/manager/behind/remind', { entity: w.home.slug })).statusCode,
    ).toBe(404);
    // The outsider's own organisation: their stranger's certificate, never Oak Care's people.
    const own = await people(outsider, `entity=${w.other.slug}`);
    expect(own.data.map((p) => p.entity.id)).toEqual([w.other.id]);

    const noDashboard = await buildUser(h.db, { entityId: w.group.id, permissions: [86] });
    expect((await summary(await clientFor(h.app, h.db, noDashboard.id), w.group.slug)).status).toBe(403);

    const docsOnly = await buildUser(h.db, { entityId: w.group.id, permissions: [105] });
    const c = await clientFor(h.app, h.db, docsOnly.id);
    expect((await summary(c, w.group.slug)).data.counts).toEqual({
      care_certificate: null,
      pathway: null,
      document: 2,
    });
    const list = await people(c, `entity=${w.group.slug}`);
    expect(list.data.flatMap((p) => p.items.map((i) => i.kind))).toEqual(['document', 'document']);

    const bad = await w.m(
      'GET',
      `/api/dashboards/manager/behind/people?entity=${w.group.slug}&kind=everything`,
    );
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('kind');
  });

  it('reminds everyone on the list once a day, in the ledger the document page uses too', async () => {
    const ledger = () =>
      h.db
        .selectFrom('notifications')
        .select(['user_id', 'kind', 'subject_key', 'channel', 'link'])
        .where('user_id', 'in', [w.ann.id, w.bob.id, w.cat.id])
        .where('kind', 'in', ['behind_reminder', 'document_reminder'])
        .where('channel', '=', 'in_app')
        .orderBy('user_id')
        .orderBy('kind')
        .orderBy('subject_key')
        .execute();
    // One kind: the pathway's people only.
    const one = await w.m('POST', '/api/dashboards/manager/behind/remind', {
      entity: w.group.slug,
      kind: 'pathway',
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(one.json()).toEqual({ data: { reminded: 2 }, message: BehindMessages.reminded(2) });
    const all = await w.m('POST', '/api/dashboards/manager/behind/remind', { entity: w.group.slug });
    // Ann (certificate, policy) and Bob (policy) get new reminders; Cat had hers today already.
    expect(all.json().data).toEqual({ reminded: 2 });
    const rows = await ledger();
    expect(rows.map((r) => [r.user_id, r.kind, r.subject_key.split(':')[0]])).toEqual([
      [w.ann.id, 'behind_reminder', 'care_certificate'],
      [w.ann.id, 'behind_reminder', 'pathway_allocation'],
      [w.ann.id, 'document_reminder', 'document'],
      [w.bob.id, 'document_reminder', 'document'],
      [w.cat.id, 'behind_reminder', 'pathway_allocation'],
    ]);
    expect(rows[0]?.link).toBe(`/care-certificate/${w.annCert.uuid}`);
    // E-mails go through the mail queue beside the in-app notice.
    const emails = await h.db
      .selectFrom('notifications')
      .select('id')
      .where('user_id', '=', w.ann.id)
      .where('kind', '=', 'behind_reminder')
      .where('channel', '=', 'email')
      .execute();
    expect(emails).toHaveLength(2);
    // A second press, or the document page's own "Remind those who have not read it", reminds nobody twice today.
    const again = await w.m('POST', '/api/dashboards/manager/behind/remind', { entity: w.group.slug });
    expect(again.json()).toEqual({ data: { reminded: 0 }, message: BehindMessages.reminded(0) });
    const page = await w.m('POST', `/api/documents/${w.policy.id}/remind`);
    expect(page.json()).toMatchObject({ message: DocumentMessages.reminded(0) });
    expect(await ledger()).toHaveLength(5);
  });
});

describe('GraphQL', () => {
  it('behind, behindPeople and remindBehind answer as the REST routes', async () => {
    const headers = await bearer(h.db, w.manager.id);
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (
        await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } })
      ).json();
    const res = await gql(
      `query ($e: String) { behind(entity: $e) { people counts { care_certificate pathway document } }
         behindPeople(entity: $e, kind: "all", first: 2) { data { name items { kind title due detail href } }
           paginatorInfo { total lastPage } } }`,
      { e: w.group.slug },
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.behind).toEqual({ people: 3, counts: { care_certificate: 1, pathway: 2, document: 2 } });
    expect(res.data.behindPeople.paginatorInfo).toEqual({ total: 3, lastPage: 2 });
    const rest = await people(w.m, `entity=${w.group.slug}&per_page=2`);
    expect(res.data.behindPeople.data).toEqual(rest.data.map((p) => ({ name: p.name, items: p.items })));
    const remind = await gql('mutation ($e: String) { remindBehind(entity: $e) { reminded } }', {
      e: w.group.slug,
    });
    expect(remind.data.remindBehind).toEqual({ reminded: 0 });
    const outsider = await bearer(h.db, w.outsider.id);
    const denied = (
      await h.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: outsider,
        payload: { query: `{ behind(entity: "${w.group.slug}") { people } }` },
      })
    ).json();
    expect(denied.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });
});

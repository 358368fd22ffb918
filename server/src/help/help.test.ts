/**
 * Help (issue 14): articles (GET for everyone, signed out too, management for super admins), "Contact support" (mail job
 * recorded with the request, e-mails written by the job, throttle), the help desk's customer view, and the
 * help-desk pages' frame-ancestors.
 */
import {
  ACTING_AS_HEADER,
  HELP_CONTACTS_PER_HOUR,
  HELP_ROUTE_MAX,
  HelpArticleBody,
  helpArticleMatches,
  PERMISSIONS,
} from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { HELP_CONTACT_JOB } from './contact';
import { DEMO_HELP_ARTICLES, seedHelpDemo } from './demo';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  registerAllJobs();
});
afterAll(async () => h?.close());

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const as = async (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: Method, url: string, payload?: object) => h.app.inject({ method, url, payload });
const superAdmin = async () => as((await buildUser(h.db, { superAdmin: true })).id);
const everyPermission = PERMISSIONS.map((p) => p.id);

const article = (over: Partial<Record<string, unknown>> = {}) => ({
  title: 'Reading the matrix',
  url_regex: '^/reports/matrix$',
  link_suffix: '#matrix',
  body: 'The matrix shows one row per person.',
  ...over,
});

async function insertArticle(over: Partial<Record<string, unknown>> = {}) {
  const res = await (await superAdmin())('POST', '/api/help-articles', article(over));
  expect(res.statusCode).toBe(201);
  return res.json().data as { id: number; title: string };
}

const session = {
  app_release: '0.1.0',
  environment: 'production',
  mode: 'web',
  connection: 'good',
  api_release: '1.0.0',
};

describe('url_regex checks (contracts)', () => {
  // issue 29 §11: with a backtracking matcher this pattern took 2 s on an 80-character route (about an hour at 300).
  const CATASTROPHIC = `^${'[a-z/*]*'.repeat(6)}X$`;
  const longRoute = (n: number) => `/${'a'.repeat(n - 1)}`;

  it('matches in linear time: a pattern that backtracks for hours answers at once, at any route length', () => {
    helpArticleMatches(CATASTROPHIC, '/'); // the first call compiles it
    for (const route of [longRoute(80), longRoute(HELP_ROUTE_MAX)]) {
      const started = performance.now();
      expect(helpArticleMatches(CATASTROPHIC, route)).toBe(false);
      expect(performance.now() - started, `${route.length} characters`).toBeLessThan(200);
    }
    expect(helpArticleMatches(CATASTROPHIC, '/abcX')).toBe(true);
    // Nested repeats are harmless now, and accepted.
    expect(helpArticleMatches('^(a+)+$', `${'a'.repeat(HELP_ROUTE_MAX - 1)}!`)).toBe(false);
  });
  it('accepts path patterns; refuses what RE2 cannot run (lookarounds, back-references)', () => {
    for (const good of [
      '^/users/\\*$',
      '^/reports/(matrix|compliance)$',
      '^/entities/\\*/roles/?$',
      '[(+)]+',
      '^(\\w*)*$',
    ])
      expect(HelpArticleBody.shape.url_regex.safeParse(good).success, good).toBe(true);
    for (const bad of ['^/users/(', '^/users(?!/create)', '(?<=/users)/x', '^/(a)\\1$'])
      expect(HelpArticleBody.shape.url_regex.safeParse(bad).success, bad).toBe(false);
  });
  it('matches route patterns only, and nothing past the length cap', () => {
    expect(helpArticleMatches('^/users/\\*$', '/users/*')).toBe(true);
    expect(helpArticleMatches('^/users/\\*$', '/users/create')).toBe(false);
    expect(helpArticleMatches('users', `/users/${'x'.repeat(400)}`)).toBe(false);
    expect(helpArticleMatches('(', '/users')).toBe(false);
  });
  it('every demo article passes the create schema', () => {
    for (const a of DEMO_HELP_ARTICLES) expect(HelpArticleBody.safeParse(a).success, a.title).toBe(true);
  });
});

describe('GET /help-articles', () => {
  it('answers a signed-out person too (the widget on the sign-in and error pages, issue 38 §3)', async () => {
    const login = await insertArticle({ title: 'Signing in', url_regex: '^/login$', link_suffix: null });
    const all = await anon('GET', '/api/help-articles');
    expect(all.statusCode).toBe(200);
    expect((all.json().data as { id: number }[]).map((a) => a.id)).toContain(login.id);
    const onLogin = await anon('GET', '/api/help-articles?route=/login');
    expect(onLogin.statusCode).toBe(200);
    expect(onLogin.json().data).toContainEqual(
      expect.objectContaining({ id: login.id, title: 'Signing in' }),
    );
    // Still read-only for them: every write answers 401 before any check of its body.
    expect((await anon('POST', '/api/help-articles', article())).statusCode).toBe(401);
    expect((await anon('PATCH', `/api/help-articles/${login.id}`, { title: 'x' })).statusCode).toBe(401);
    expect((await anon('DELETE', `/api/help-articles/${login.id}`)).statusCode).toBe(401);
    // GraphQL stays for signed-in callers (the widget signed in uses it).
    const gql = await h.app.inject({
      method: 'POST',
      url: '/api/graphql',
      payload: { query: '{ helpArticles { id } }' },
    });
    expect(gql.json().errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    await h.db.deleteFrom('help_articles').where('id', '=', login.id).execute();
  });
  it('lists every article to anyone signed in, and filters by route pattern', async () => {
    const matrix = await insertArticle({ title: 'Matrix help', url_regex: '^/reports/matrix$' });
    const users = await insertArticle({ title: 'User help', url_regex: '^/users/\\*$', link_suffix: null });
    const learner = await as((await buildUser(h.db)).id);
    const all = await learner('GET', '/api/help-articles');
    expect(all.statusCode).toBe(200);
    const ids = (all.json().data as { id: number }[]).map((a) => a.id);
    expect(ids).toEqual(expect.arrayContaining([matrix.id, users.id]));
    const onUser = await learner('GET', `/api/help-articles?route=${encodeURIComponent('/users/*')}`);
    const found = onUser.json().data as { id: number; link_suffix: string | null }[];
    expect(found.map((a) => a.id)).toContain(users.id);
    expect(found.map((a) => a.id)).not.toContain(matrix.id);
    expect(found.find((a) => a.id === users.id)?.link_suffix).toBeNull();
  });
  it('answers at once on a long route whatever the patterns stored (issue 29 §11)', async () => {
    const slow = await insertArticle({
      title: 'Backtracking pattern',
      url_regex: `^${'[a-z/*]*'.repeat(6)}X$`,
    });
    const learner = await as((await buildUser(h.db)).id);
    await learner('GET', '/api/help-articles?route=/warm-up');
    const started = performance.now();
    const res = await learner('GET', `/api/help-articles?route=/${'a'.repeat(79)}`);
    expect(performance.now() - started).toBeLessThan(200);
    expect(res.statusCode).toBe(200);
    expect((res.json().data as { id: number }[]).map((a) => a.id)).not.toContain(slow.id);
    await h.db.deleteFrom('help_articles').where('id', '=', slow.id).execute();
  });
  it('answers 422 for a route longer than a route pattern can be', async () => {
    const learner = await as((await buildUser(h.db)).id);
    expect((await learner('GET', `/api/help-articles?route=/${'a'.repeat(400)}`)).statusCode).toBe(422);
  });
  it('the demo seed inserts articles matched to their pages', async () => {
    const before = await h.db.selectFrom('help_articles').select('id').execute();
    await seedHelpDemo(h.db);
    const learner = await as((await buildUser(h.db)).id);
    const onMatrix = await learner('GET', '/api/help-articles?route=/reports/matrix');
    const titles = (onMatrix.json().data as { title: string }[]).map((a) => a.title);
    expect(titles).toContain('Reading the compliance matrix');
    expect(titles).not.toContain('Your manager dashboard');
    await h.db
      .deleteFrom('help_articles')
      .where(
        'id',
        'not in',
        before.map((r) => r.id),
      )
      .execute();
  });
});

describe('POST /help-articles', () => {
  it('answers 401, 403 for anyone but a super admin (whatever their permissions), 422 on bad input', async () => {
    expect((await anon('POST', '/api/help-articles', article())).statusCode).toBe(401);
    const manager = await as((await buildUser(h.db, { permissions: everyPermission })).id);
    expect((await manager('POST', '/api/help-articles', article())).statusCode).toBe(403);
    const admin = await superAdmin();
    const badRegex = await admin('POST', '/api/help-articles', article({ url_regex: '^/users/(' }));
    expect(badRegex.statusCode).toBe(422);
    expect(badRegex.json()).toMatchObject({
      message: 'The URL pattern is not a valid regular expression.',
      errors: { url_regex: ['The URL pattern is not a valid regular expression.'] },
    });
    const lookahead = await admin('POST', '/api/help-articles', article({ url_regex: '^/users(?!/create)' }));
    expect(lookahead.statusCode).toBe(422);
    expect(lookahead.json().errors.url_regex).toEqual(['The URL pattern is not a valid regular expression.']);
    const long = await admin('POST', '/api/help-articles', article({ url_regex: `^/${'a'.repeat(300)}$` }));
    expect(long.statusCode).toBe(422);
    const noBody = await admin('POST', '/api/help-articles', article({ body: '  ' }));
    expect(noBody.json().errors.body).toBeDefined();
    const suffix = await admin('POST', '/api/help-articles', article({ link_suffix: 'javascript:alert(1)' }));
    expect(suffix.statusCode).toBe(422);
    expect(suffix.json().errors.link_suffix).toBeDefined();
  });
  it('creates an article (201) with its message', async () => {
    const res = await (await superAdmin())('POST', '/api/help-articles', article({ link_suffix: '' }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      message: 'Help article has been created.',
      data: { title: 'Reading the matrix', url_regex: '^/reports/matrix$', link_suffix: null },
    });
  });
});

describe('PATCH /help-articles/{id}', () => {
  it('answers 401, 403, 404 and 422', async () => {
    const a = await insertArticle();
    expect((await anon('PATCH', `/api/help-articles/${a.id}`, { title: 'x' })).statusCode).toBe(401);
    const manager = await as((await buildUser(h.db, { permissions: everyPermission })).id);
    expect((await manager('PATCH', `/api/help-articles/${a.id}`, { title: 'x' })).statusCode).toBe(403);
    const admin = await superAdmin();
    expect((await admin('PATCH', '/api/help-articles/99999999', { title: 'x' })).statusCode).toBe(404);
    expect((await admin('PATCH', `/api/help-articles/${a.id}`, { url_regex: '[' })).statusCode).toBe(422);
  });
  it('changes only the fields it is sent', async () => {
    const a = await insertArticle({ title: 'Before', link_suffix: '?help=1' });
    const res = await (await superAdmin())('PATCH', `/api/help-articles/${a.id}`, { title: 'After' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Help article has been updated.',
      data: { title: 'After', link_suffix: '?help=1', url_regex: '^/reports/matrix$' },
    });
  });
});

describe('DELETE /help-articles/{id}', () => {
  it('answers 401, 403, 404, then deletes', async () => {
    const a = await insertArticle();
    expect((await anon('DELETE', `/api/help-articles/${a.id}`)).statusCode).toBe(401);
    const manager = await as((await buildUser(h.db, { permissions: everyPermission })).id);
    expect((await manager('DELETE', `/api/help-articles/${a.id}`)).statusCode).toBe(403);
    const admin = await superAdmin();
    const res = await admin('DELETE', `/api/help-articles/${a.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Help article has been deleted.');
    expect((await admin('DELETE', `/api/help-articles/${a.id}`)).statusCode).toBe(404);
  });
});

describe('POST /help/contact', () => {
  const outboxTo = async (address: string) =>
    h.db.selectFrom('mail_outbox').selectAll().where('to_address', '=', address).execute();
  /** The in-app copies of help requests a support user has received: sender and text. */
  const inboxOf = async (userId: number) =>
    h.db
      .selectFrom('message_recipients as r')
      .innerJoin('messages as m', 'm.id', 'r.message_id')
      .select(['m.sender_id', 'm.text'])
      .where('r.recipient_id', '=', userId)
      .execute();

  it('answers 401 signed out and 422 without a question or session', async () => {
    expect((await anon('POST', '/api/help/contact', { question: 'Hi', session })).statusCode).toBe(401);
    const me = await as((await buildUser(h.db)).id);
    const empty = await me('POST', '/api/help/contact', { question: ' ', session });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.question).toEqual(['Write your question.']);
    const noSession = await me('POST', '/api/help/contact', { question: 'Hi' });
    expect(noSession.statusCode).toBe(422);
  });

  it("records the job with the request and e-mails the organisation's support address with the identification", async () => {
    const org = await buildEntity(h.db, {
      level: 'A',
      settings: { email: `support-${Date.now()}@org.test` },
    });
    const home = await buildEntity(h.db, { level: 'B', parentId: org.id });
    const role = await buildRole(h.db, home.id, { name: 'Senior carer' });
    const user = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Ann Carer' });
    // The account behind the organisation's support address gets the question in /messages as well.
    const supportDesk = await buildUser(h.db, { entityId: org.id, email: org.email as string });
    const res = await (await as(user.id))('POST', '/api/help/contact', {
      question: 'How do I add my first-aid certificate?',
      page: 'http://localhost:3000/users/abc',
      session: { ...session, connection: 'poor', mode: 'mobile' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'Your question has been sent to support. We will reply by e-mail.',
      data: { delivered_to: `${org.name} support` },
    });
    // After commit: the job is there, no mail yet (the worker writes it).
    const jobs = await h.db.selectFrom('jobs').selectAll().where('name', '=', HELP_CONTACT_JOB).execute();
    expect(jobs.length).toBeGreaterThan(0);
    expect(await outboxTo(org.email as string)).toHaveLength(0);
    await runDueJobs(h.deps, new Date(Date.now() + 1000));
    const mails = await outboxTo(org.email as string);
    expect(mails).toHaveLength(1);
    const text = mails[0]?.text_body ?? '';
    expect(mails[0]?.subject).toBe('Help request from Ann Carer');
    expect(text).toContain('How do I add my first-aid certificate?');
    expect(text).toContain(`E-mail: ${user.email}`);
    expect(text).toContain(`Role: Senior carer (id ${role.id})`);
    expect(text).toContain(`Type: ${user.type.name} (id ${user.type.id})`);
    expect(text).toContain(`Profile: http://localhost:3000/users/${user.uuid}`);
    expect(text).toContain('Mode: mobile');
    expect(text).toContain('Connection: poor');
    expect(text).toContain('API release: 1.0.0');
    expect(await inboxOf(supportDesk.id)).toEqual([
      {
        sender_id: user.id,
        text: 'How do I add my first-aid certificate?\n\nAsked on the page http://localhost:3000/users/abc',
      },
    ]);
    // Run again: nothing more (the job is done; its key makes a rerun record nothing).
    await runDueJobs(h.deps, new Date(Date.now() + 2000));
    expect(await outboxTo(org.email as string)).toHaveLength(1);
    expect(await inboxOf(supportDesk.id)).toHaveLength(1);
  });

  it('goes to the super admins when the organisation names no support address', async () => {
    const admin = await buildUser(h.db, { superAdmin: true });
    const user = await buildUser(h.db);
    const res = await (await as(user.id))('POST', '/api/help/contact', { question: 'Help!', session });
    expect(res.json().data.delivered_to).toBe('the CareCompliance support team');
    await runDueJobs(h.deps, new Date(Date.now() + 1000));
    const mails = await outboxTo(admin.email);
    expect(mails.map((m) => m.subject)).toContain(`Help request from ${user.name}`);
    expect(await inboxOf(admin.id)).toContainEqual({ sender_id: user.id, text: 'Help!' });
  });

  it(`allows ${HELP_CONTACTS_PER_HOUR} an hour per user, then 429 with nothing recorded`, async () => {
    const user = await buildUser(h.db);
    const me = await as(user.id);
    for (let i = 0; i < HELP_CONTACTS_PER_HOUR; i++)
      expect((await me('POST', '/api/help/contact', { question: `Q${i}`, session })).statusCode).toBe(200);
    const refused = await me('POST', '/api/help/contact', { question: 'One more', session });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toMatch(/Too many attempts/);
    const rows = await h.db.selectFrom('help_contacts').select('id').where('user_id', '=', user.id).execute();
    expect(rows).toHaveLength(HELP_CONTACTS_PER_HOUR);
    // Another user is not held back.
    const other = await as((await buildUser(h.db)).id);
    expect((await other('POST', '/api/help/contact', { question: 'Mine', session })).statusCode).toBe(200);
  });
});

describe('GET /help/customers', () => {
  it('answers 401, 403 for anyone but a super admin, 422 without an e-mail, 404 for an unknown one', async () => {
    const customer = await buildUser(h.db);
    const url = `/api/help/customers?email=${encodeURIComponent(customer.email)}`;
    expect((await anon('GET', url)).statusCode).toBe(401);
    const sameOrgManager = await as(
      (await buildUser(h.db, { entityId: customer.primary_entity_id, permissions: everyPermission })).id,
    );
    expect((await sameOrgManager('GET', url)).statusCode).toBe(403);
    const admin = await superAdmin();
    expect((await admin('GET', '/api/help/customers')).statusCode).toBe(422);
    const missing = await admin('GET', '/api/help/customers?email=nobody%40nowhere.test');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('No user has this e-mail address.');
  });

  it("shows a customer's profile, organisation, role, type, sign-ins and compliance summary", async () => {
    const org = await buildEntity(h.db, { level: 'A' });
    const home = await buildEntity(h.db, { level: 'B', parentId: org.id });
    const role = await buildRole(h.db, home.id, { name: 'Night carer' });
    const customer = await buildUser(h.db, { entityId: home.id, roleId: role.id, name: 'Cara Customer' });
    await h.db
      .insertInto('auth_events')
      .values({ user_id: customer.id, event: 'login', ip: '10.0.0.1', user_agent: 'Firefox', via: 'session' })
      .execute();
    // A super admin acting as their own organisation (which narrows their scope) still finds the customer.
    const adminOrg = await buildEntity(h.db, { level: 'A' });
    const adminUser = await buildUser(h.db, { entityId: adminOrg.id, superAdmin: true });
    const res = await h.app.inject({
      method: 'GET',
      url: `/api/help/customers?email=${encodeURIComponent(customer.email.toUpperCase())}`,
      headers: { ...(await bearer(h.db, adminUser.id)), [ACTING_AS_HEADER]: adminOrg.slug },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      uuid: customer.uuid,
      name: 'Cara Customer',
      email: customer.email,
      profile_url: `http://localhost:3000/users/${customer.uuid}`,
      organisation: { id: home.id, name: home.name },
      a_entity: { id: org.id },
      role: { id: role.id, name: 'Night carer' },
      type: { id: customer.type.id, name: customer.type.name },
      recent_sign_ins: [{ event: 'login', ip: '10.0.0.1' }],
      compliance: { required: 0, compliant: 0, score: null },
    });
  });
});

describe('frame-ancestors of the help-desk pages', () => {
  it('is none by default, and the configured sources only on /helpscout-app and /helpscout-auth', async () => {
    const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);
    const plain = await h.app.inject({ method: 'GET', url: '/helpscout-app?email=a%40b.test' });
    expect(csp(plain)).toContain("frame-ancestors 'none'");
    expect(plain.headers['x-frame-options']).toBe('DENY');

    const framed = await createHarness({
      helpdeskFrameAncestors: ['https://secure.helpscout.net', 'https://*.example.com'],
    });
    try {
      for (const url of ['/helpscout-app?email=a%40b.test', '/helpscout-auth', '/helpscout-auth/']) {
        const res = await framed.app.inject({ method: 'GET', url });
        expect(csp(res), url).toContain('frame-ancestors https://secure.helpscout.net https://*.example.com');
        expect(res.headers['x-frame-options'], url).toBeUndefined();
        expect(csp(res)).toContain("script-src 'self'");
      }
      for (const url of ['/users', '/api/help-articles', '/helpscout-app-other', '/api/helpscout-app']) {
        const res = await framed.app.inject({ method: 'GET', url });
        expect(csp(res), url).toContain("frame-ancestors 'none'");
        expect(res.headers['x-frame-options'], url).toBe('DENY');
      }
    } finally {
      await framed.close();
    }
  });
});

describe('GraphQL helpArticles and upsertHelpArticle', () => {
  const gql = async (headers: Record<string, string>, query: string, variables: object = {}) =>
    (await h.app.inject({ method: 'POST', url: '/graphql', headers, payload: { query, variables } })).json();

  it('lists the articles matching a route, refuses upserts to anyone but a super admin', async () => {
    const a = await insertArticle({ title: 'GraphQL matrix help', url_regex: '^/reports/matrix$' });
    const learner = await bearer(h.db, (await buildUser(h.db)).id);
    const list = await gql(learner, '{ helpArticles(route: "/reports/matrix") { id title link_suffix } }');
    expect(list.errors).toBeUndefined();
    expect(list.data.helpArticles).toContainEqual({
      id: String(a.id),
      title: a.title,
      link_suffix: '#matrix',
    });
    const none = await gql(learner, '{ helpArticles(route: "/users/*") { id } }');
    expect(none.data.helpArticles.map((x: { id: string }) => x.id)).not.toContain(String(a.id));
    const refused = await gql(
      learner,
      'mutation { upsertHelpArticle(input: { title: "x", url_regex: "^/$", body: "y" }) { id } }',
    );
    expect(refused.errors?.[0]?.extensions?.status).toBe(403);
    expect(refused.data).toBeNull();
    const admin = await bearer(h.db, (await buildUser(h.db, { superAdmin: true })).id);
    const created = await gql(
      admin,
      'mutation { upsertHelpArticle(input: { title: "New", url_regex: "^/$", body: "Body" }) { id title } }',
    );
    expect(created.data.upsertHelpArticle.title).toBe('New');
    const bad = await gql(
      admin,
      'mutation { upsertHelpArticle(input: { title: "x", url_regex: "(", body: "y" }) { id } }',
    );
    expect(bad.errors?.[0]?.message).toBe('Invalid input');
    expect(bad.errors?.[0]?.extensions?.validation?.url_regex).toEqual([
      'The URL pattern is not a valid regular expression.',
    ]);
    const deleted = await gql(
      admin,
      `mutation { deleteHelpArticle(id: "${created.data.upsertHelpArticle.id}") }`,
    );
    expect(deleted.data.deleteHelpArticle).toBe(true);
  });
});

import { Messages } from '@cc/contracts';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { crashOnce, removeCrashes } from '../../test/crash';
import { buildEntity, buildRole, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { runDueJobs } from '../jobs/queue';
import { registerAllJobs } from '../register-jobs';
import { MESSAGE_MAIL } from './jobs';
import { MessagingErrors, sendMessageOnBehalf } from './service';

/** Messaging (spec 2 §7): every call's 401, 422, 403, 404 and happy path; fan-out; mail after commit. */
let h: Harness;
beforeAll(async () => {
  registerAllJobs();
  h = await createHarness();
});
afterAll(async () => h?.close());
afterEach(async () => removeCrashes(h.db));

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
type Client = Awaited<ReturnType<typeof clientFor>>;
const as = (userId: number) => clientFor(h.app, h.db, userId);
const anon = (method: Method, url: string, payload?: object) => h.app.inject({ method, url, payload });
const DASHBOARD = 39;
const ACTIVE_USERS = 81;
const TAGS_USE = 97;

/**
 * A group with two homes: a manager (39, 81, 97) and staff at the site, a care assistant at the sibling home, and a
 * group admin (39) at the top; plus a user of another organisation holding every permission.
 */
async function world() {
  const org = await buildEntity(h.db, { level: 'A' });
  const site = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Oak Home' });
  const sibling = await buildEntity(h.db, { level: 'B', parentId: org.id, name: 'Elm Home' });
  const care = await buildRole(h.db, org.id, { name: 'Care Assistant' });
  const manager = await buildUser(h.db, {
    entityId: site.id,
    permissions: [DASHBOARD, ACTIVE_USERS, TAGS_USE],
    name: 'Sam Manager',
  });
  const learner = await buildUser(h.db, { entityId: site.id, roleId: care.id, name: 'Casey Learner' });
  const colleague = await buildUser(h.db, { entityId: site.id, roleId: care.id, name: 'Dee Colleague' });
  const cook = await buildUser(h.db, { entityId: site.id, name: 'Flo Cook' });
  const elm = await buildUser(h.db, { entityId: sibling.id, roleId: care.id, name: 'Eli Sibling' });
  const groupAdmin = await buildUser(h.db, { entityId: org.id, permissions: [DASHBOARD], name: 'Gus Group' });
  const outsiderOrg = await buildEntity(h.db, { level: 'A' });
  const outsider = await buildUser(h.db, {
    entityId: outsiderOrg.id,
    permissions: [DASHBOARD, ACTIVE_USERS, TAGS_USE],
    name: 'Olly Outsider',
  });
  return {
    org,
    site,
    sibling,
    care,
    manager,
    learner,
    colleague,
    cook,
    elm,
    groupAdmin,
    outsider,
    outsiderOrg,
    m: await as(manager.id),
    l: await as(learner.id),
  };
}
type World = Awaited<ReturnType<typeof world>>;

const send = (c: Client, from: number | string, recipient: unknown, message = 'Hello', extra: object = {}) =>
  c('POST', `/api/users/${from}/message`, { message, recipient, ...extra });
const recipientsOf = async (messageId: number) =>
  (
    await h.db
      .selectFrom('message_recipients')
      .select('recipient_id')
      .where('message_id', '=', messageId)
      .orderBy('recipient_id')
      .execute()
  ).map((r) => r.recipient_id);
const messagesWith = (text: string) =>
  h.db.selectFrom('messages').select('id').where('text', '=', text).execute();
const mailJobs = (messageId: number) =>
  h.db
    .selectFrom('jobs')
    .select(['unique_key', 'payload'])
    .where('name', '=', MESSAGE_MAIL)
    .where(sql<boolean>`(payload->>'message_id')::int = ${messageId}`)
    .orderBy('unique_key')
    .execute();
const ids = (res: { json(): { data: { id: number }[] } }) => res.json().data.map((m) => m.id);
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

describe('POST /users/{id}/message', () => {
  it('answers 401 signed out, 422 for a bad body, and writes nothing then', async () => {
    const w = await world();
    expect((await anon('POST', `/api/users/${w.manager.id}/message`, { message: 'x' })).statusCode).toBe(401);
    const empty = await send(w.m, w.manager.id, w.learner.id, '   ');
    expect(empty.statusCode).toBe(422);
    expect(empty.json()).toMatchObject({
      message: 'Write a message.',
      errors: { message: ['Write a message.'] },
    });
    const long = await send(w.m, w.manager.id, w.learner.id, 'x'.repeat(5001));
    expect(long.json().errors.message).toEqual(['A message can be at most 5000 characters.']);
    const none = await w.m('POST', `/api/users/${w.manager.id}/message`, { message: 'Hi' });
    expect(none.statusCode).toBe(422);
    expect(none.json().errors.recipient).toEqual([MessagingErrors.noRecipient]);
    const self = await send(w.m, w.manager.id, w.manager.uuid, 'To me');
    expect(self.statusCode).toBe(422);
    expect(self.json().errors.recipient).toEqual([MessagingErrors.self]);
    const badType = await send(w.m, w.manager.id, w.learner.id, 'Hi', { messageTypes: ['sms'] });
    expect(badType.statusCode).toBe(422);
    expect(await messagesWith('To me')).toEqual([]);
  });

  it("answers 403 for another user's mailbox in scope, 404 out of scope, and 403 without 39", async () => {
    const w = await world();
    // {id} must be the caller: the manager sees the learner, yet may not send as them.
    expect((await send(w.m, w.learner.id, w.colleague.id, 'As you')).statusCode).toBe(403);
    const outsider = await as(w.outsider.id);
    expect((await send(outsider, w.manager.id, w.learner.id, 'As you')).statusCode).toBe(404);
    // The learner holds nothing: a message to a colleague who never wrote to them is not a reply.
    expect((await send(w.l, w.learner.id, w.colleague.id, 'Unasked')).statusCode).toBe(403);
    expect(await messagesWith('As you')).toEqual([]);
    expect(await messagesWith('Unasked')).toEqual([]);
  });

  it('answers 404 for one person of another organisation (as for nobody), and 422 for a list with one', async () => {
    const w = await world();
    const theirs = await send(w.m, w.manager.id, w.outsider.id, 'Across');
    const nobody = await send(w.m, w.manager.id, 99_999_999, 'Across');
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(nobody.body);
    const list = await send(w.m, w.manager.id, [w.learner.id, w.outsider.uuid], 'Across');
    expect(list.statusCode).toBe(422);
    expect(list.json().errors.recipient).toEqual([MessagingErrors.unreachable]);
    // A site manager does not reach the sibling home either.
    expect((await send(w.m, w.manager.id, w.elm.id, 'Across')).statusCode).toBe(404);
    expect(await messagesWith('Across')).toEqual([]);
  });

  it('sends to one person by id or uuid: 201, the sent message, stored trimmed and as plain text', async () => {
    const w = await world();
    const text = '<b>Shift</b> swap? <script>alert(1)</script> & thanks';
    const res = await send(w.m, w.manager.uuid, w.learner.uuid, `  ${text}\n`);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({
      message: Messages.sentMessagesUpdated,
      data: {
        id: expect.any(Number),
        message: text,
        audience: { kind: 'person', name: 'Casey Learner', deep: false },
        recipient: { id: w.learner.id, uuid: w.learner.uuid, name: 'Casey Learner' },
        recipient_count: 1,
        read_count: 0,
        sent_at: expect.any(String),
        mailed: false,
      },
    });
    const id = res.json().data.id;
    expect(await recipientsOf(id)).toEqual([w.learner.id]);
    const row = await h.db.selectFrom('messages').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ text, sender_id: w.manager.id, entity_id: w.site.id, mailed: false });
    expect(await mailJobs(id)).toEqual([]);
  });

  it('sends to a list with 81 alone, but a single person needs 39; the sender is never a recipient', async () => {
    const w = await world();
    const clerk = await buildUser(h.db, { entityId: w.site.id, permissions: [ACTIVE_USERS] });
    const c = await as(clerk.id);
    expect((await send(c, clerk.id, w.learner.id, 'One')).statusCode).toBe(403);
    const res = await send(c, clerk.id, [w.learner.id, w.colleague.uuid, w.learner.uuid], 'Team');
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      audience: { kind: 'people', name: '2 people', deep: false },
      recipient: null,
      recipient_count: 2,
    });
    expect(await recipientsOf(res.json().data.id)).toEqual(sorted([w.learner.id, w.colleague.id]));
    const withSelf = await send(c, clerk.id, [w.learner.id, clerk.id], 'Team and me');
    expect(withSelf.statusCode).toBe(422);
    expect(await messagesWith('Team and me')).toEqual([]);
  });

  it('lets a replier without 39 answer whoever wrote to them, even from outside their scope, but no stranger', async () => {
    const w = await world();
    // The group admin is above the learner's home: outside the learner's scope.
    const g = await as(w.groupAdmin.id);
    expect((await send(g, w.groupAdmin.id, w.learner.id, 'How is the new rota?')).statusCode).toBe(201);
    const reply = await send(w.l, w.learner.id, w.groupAdmin.uuid, 'It works, thanks');
    expect(reply.statusCode, reply.body).toBe(201);
    expect(reply.json().data.recipient.id).toBe(w.groupAdmin.id);
    expect((await send(w.l, w.learner.id, w.colleague.id, 'Hi stranger')).statusCode).toBe(403);
    // A reply to the writer and a stranger in one list is not a reply.
    expect((await send(w.l, w.learner.id, [w.groupAdmin.id, w.colleague.id], 'Both')).statusCode).toBe(403);
    // Someone of another organisation never wrote: unreachable, not forbidden.
    expect((await send(w.l, w.learner.id, w.outsider.id, 'Hi')).statusCode).toBe(404);
  });

  it('sends within the acting-as organisation when a super admin acts as one', async () => {
    const w = await world();
    const admin = await buildUser(h.db, { superAdmin: true });
    const a = await as(admin.id);
    const inside = await a('POST', `/api/users/${admin.id}/message?actingAs=${w.site.slug}`, {
      message: 'Acting',
      recipient: w.learner.id,
    });
    expect(inside.statusCode, inside.body).toBe(201);
    const row = await h.db
      .selectFrom('messages')
      .select('entity_id')
      .where('id', '=', inside.json().data.id)
      .executeTakeFirstOrThrow();
    expect(row.entity_id).toBe(w.site.id);
    const outside = await a('POST', `/api/users/${admin.id}/message?actingAs=${w.site.slug}`, {
      message: 'Acting',
      recipient: w.outsider.id,
    });
    expect(outside.statusCode).toBe(404);
  });
});

describe('received and sent lists', () => {
  async function conversation(w: World) {
    const first = (await send(w.m, w.manager.id, w.learner.id, 'Please do fire safety')).json().data.id;
    const reply = (await send(w.l, w.learner.id, w.manager.id, 'Booked for Monday')).json().data.id;
    const second = (await send(w.m, w.manager.id, w.learner.id, 'Thank you')).json().data.id;
    const other = (await send(w.m, w.manager.id, w.colleague.id, 'Rota for you')).json().data.id;
    return { first, reply, second, other };
  }

  it('answer 401 signed out, 403 for a mailbox in scope, 404 out of scope and for nobody', async () => {
    const w = await world();
    const outsider = await as(w.outsider.id);
    const paths = [
      'received/messages',
      'sent/messages',
      `received/${w.manager.id}/messages`,
      `sent/${w.manager.uuid}/messages`,
    ];
    for (const path of paths) {
      expect((await anon('GET', `/api/users/${w.learner.id}/${path}`)).statusCode).toBe(401);
      expect((await w.m('GET', `/api/users/${w.learner.id}/${path}`)).statusCode).toBe(403);
      const theirs = await outsider('GET', `/api/users/${w.learner.id}/${path}`);
      const nobody = await outsider('GET', `/api/users/99999999/${path}`);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.body).toBe(nobody.body);
      expect((await outsider('GET', `/api/users/not-a-ref/${path}`)).statusCode).toBe(404);
      expect((await w.l('GET', `/api/users/${w.learner.id}/${path}?per_page=0`)).statusCode).toBe(422);
      expect((await w.l('GET', `/api/users/${w.learner.id}/${path}`)).statusCode).toBe(200);
    }
  });

  it('list received newest first with the unread count; unread=1, search and pages', async () => {
    const w = await world();
    const c = await conversation(w);
    const res = await w.l('GET', `/api/users/${w.learner.uuid}/received/messages`);
    expect(res.statusCode).toBe(200);
    expect(ids(res)).toEqual([c.second, c.first]);
    expect(res.json().unread_message_count).toBe(2);
    expect(res.json().data[0]).toEqual({
      id: c.second,
      message: 'Thank you',
      sender: { id: w.manager.id, uuid: w.manager.uuid, name: 'Sam Manager' },
      audience: { kind: 'person', name: 'Casey Learner', deep: false },
      sent_at: expect.any(String),
      read_at: null,
      mailed: false,
    });
    await w.l('PATCH', `/api/users/${w.learner.id}/received/messages/${c.first}`, { read: true });
    const unread = await w.l('GET', `/api/users/${w.learner.id}/received/messages?unread=1`);
    expect(ids(unread)).toEqual([c.second]);
    expect(unread.json().unread_message_count).toBe(1);
    const byText = await w.l('GET', `/api/users/${w.learner.id}/received/messages?search=FIRE`);
    expect(ids(byText)).toEqual([c.first]);
    const byName = await w.l('GET', `/api/users/${w.learner.id}/received/messages?search=sam`);
    expect(ids(byName)).toEqual([c.second, c.first]);
    const page2 = await w.l('GET', `/api/users/${w.learner.id}/received/messages?per_page=1&page=2`);
    expect(ids(page2)).toEqual([c.first]);
    expect(page2.json().meta).toMatchObject({ total: 2, last_page: 2, current_page: 2 });
  });

  it('list sent with counts of recipients and reads; search by text or the other person', async () => {
    const w = await world();
    const c = await conversation(w);
    await w.l('PATCH', `/api/users/${w.learner.id}/received/messages/${c.first}`, { read: true });
    const res = await w.m('GET', `/api/users/${w.manager.id}/sent/messages`);
    expect(ids(res)).toEqual([c.other, c.second, c.first]);
    expect(res.json().data[2]).toMatchObject({ id: c.first, recipient_count: 1, read_count: 1 });
    expect(res.json().data[1]).toMatchObject({ id: c.second, recipient_count: 1, read_count: 0 });
    expect(res.json().unread_message_count).toBeUndefined();
    const search = await w.m('GET', `/api/users/${w.manager.id}/sent/messages?search=dee`);
    expect(ids(search)).toEqual([c.other]);
  });

  it('show the conversation with one person, both ways; a stranger of another organisation is 404', async () => {
    const w = await world();
    const c = await conversation(w);
    const from = await w.l('GET', `/api/users/${w.learner.id}/received/${w.manager.uuid}/messages`);
    expect(ids(from)).toEqual([c.second, c.first]);
    expect(from.json().unread_message_count).toBe(2);
    const to = await w.m('GET', `/api/users/${w.manager.id}/sent/${w.learner.id}/messages`);
    expect(ids(to)).toEqual([c.second, c.first]);
    const mine = await w.l('GET', `/api/users/${w.learner.id}/sent/${w.manager.id}/messages`);
    expect(ids(mine)).toEqual([c.reply]);
    expect(
      (await w.l('GET', `/api/users/${w.learner.id}/received/${w.outsider.id}/messages`)).statusCode,
    ).toBe(404);
    expect((await w.l('GET', `/api/users/${w.learner.id}/sent/${w.outsider.uuid}/messages`)).statusCode).toBe(
      404,
    );
    // Out of the learner's scope, but they have exchanged messages: the conversation is theirs to read.
    const g = await as(w.groupAdmin.id);
    const hi = (await send(g, w.groupAdmin.id, w.learner.id, 'Hi from the group')).json().data.id;
    const group = await w.l('GET', `/api/users/${w.learner.id}/received/${w.groupAdmin.id}/messages`);
    expect(ids(group)).toEqual([hi]);
  });
});

describe('PATCH /users/{id}/received/messages/{messageId}', () => {
  it('answers 401, 422, 403, 404 (not received, another organisation) and changes nothing then', async () => {
    const w = await world();
    const id = (await send(w.m, w.manager.id, w.learner.id, 'Read me')).json().data.id;
    const url = `/api/users/${w.learner.id}/received/messages/${id}`;
    expect((await anon('PATCH', url, { read: true })).statusCode).toBe(401);
    expect((await w.l('PATCH', url, { read: 'yes' })).statusCode).toBe(422);
    expect((await w.l('PATCH', url, {})).statusCode).toBe(422);
    expect((await w.m('PATCH', url, { read: true })).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('PATCH', url, { read: true })).statusCode).toBe(404);
    // The sender holds no received copy of it.
    const senderSide = await w.m('PATCH', `/api/users/${w.manager.id}/received/messages/${id}`, {
      read: true,
    });
    expect(senderSide.statusCode).toBe(404);
    const read = await h.db
      .selectFrom('message_recipients')
      .select('read_at')
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(read.read_at).toBeNull();
  });

  it('marks read (keeping the first read time) and unread again', async () => {
    const w = await world();
    const id = (await send(w.m, w.manager.id, w.learner.id, 'Read me')).json().data.id;
    const url = `/api/users/${w.learner.id}/received/messages/${id}`;
    const read = await w.l('PATCH', url, { read: true });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      message: Messages.receivedMessagesUpdated,
      data: { id, read_at: expect.any(String) },
    });
    const again = await w.l('PATCH', url, { read: true });
    expect(again.json().data.read_at).toBe(read.json().data.read_at);
    const sent = await w.m('GET', `/api/users/${w.manager.id}/sent/messages`);
    expect(sent.json().data[0]).toMatchObject({ id, read_count: 1 });
    const unread = await w.l('PATCH', url, { read: false });
    expect(unread.json().data.read_at).toBeNull();
    const list = await w.l('GET', `/api/users/${w.learner.id}/received/messages`);
    expect(list.json().unread_message_count).toBe(1);
  });
});

describe('DELETE /users/{id}/messages/{messageId}', () => {
  it('answers 401, 403, 404 (another organisation, already deleted), and deletes nothing then', async () => {
    const w = await world();
    const id = (await send(w.m, w.manager.id, w.learner.id, 'Keep me')).json().data.id;
    expect((await anon('DELETE', `/api/users/${w.learner.id}/messages/${id}`)).statusCode).toBe(401);
    expect((await w.m('DELETE', `/api/users/${w.learner.id}/messages/${id}`)).statusCode).toBe(403);
    const outsider = await as(w.outsider.id);
    expect((await outsider('DELETE', `/api/users/${w.learner.id}/messages/${id}`)).statusCode).toBe(404);
    // Their own mailbox, but not their message.
    expect((await outsider('DELETE', `/api/users/${w.outsider.id}/messages/${id}`)).statusCode).toBe(404);
    expect((await w.l('DELETE', `/api/users/${w.learner.id}/messages/abc`)).statusCode).toBe(422);
    const row = await h.db
      .selectFrom('message_recipients')
      .select('deleted_at')
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.deleted_at).toBeNull();
  });

  it("deletes the caller's own copy only: the other side still sees it", async () => {
    const w = await world();
    const a = (await send(w.m, w.manager.id, w.learner.id, 'First')).json().data.id;
    const b = (await send(w.m, w.manager.id, w.learner.id, 'Second')).json().data.id;
    const gone = await w.l('DELETE', `/api/users/${w.learner.id}/messages/${a}`);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ message: Messages.messageDeleted });
    expect((await w.l('DELETE', `/api/users/${w.learner.id}/messages/${a}`)).statusCode).toBe(404);
    const received = await w.l('GET', `/api/users/${w.learner.id}/received/messages`);
    expect(ids(received)).toEqual([b]);
    expect(received.json().unread_message_count).toBe(1);
    expect(ids(await w.m('GET', `/api/users/${w.manager.id}/sent/messages`))).toEqual([b, a]);
    expect((await w.m('DELETE', `/api/users/${w.manager.id}/messages/${b}`)).statusCode).toBe(200);
    expect(ids(await w.m('GET', `/api/users/${w.manager.id}/sent/messages`))).toEqual([a]);
    expect(ids(await w.l('GET', `/api/users/${w.learner.id}/received/messages`))).toEqual([b]);
  });
});

describe('POST /entities/{slug}/roles/{roleId}/message', () => {
  it('answers 401, 422, 403 without 39, 404 for another organisation or its role', async () => {
    const w = await world();
    const url = `/api/entities/${w.site.slug}/roles/${w.care.id}/message`;
    expect((await anon('POST', url, { message: 'x' })).statusCode).toBe(401);
    expect((await w.m('POST', url, { message: '' })).statusCode).toBe(422);
    expect((await w.l('POST', url, { message: 'Role' })).statusCode).toBe(403);
    const outsider = await as(w.outsider.id);
    expect((await outsider('POST', url, { message: 'Role' })).statusCode).toBe(404);
    const theirRole = await buildRole(h.db, w.outsiderOrg.id);
    const foreign = await w.m('POST', `/api/entities/${w.site.slug}/roles/${theirRole.id}/message`, {
      message: 'Role',
    });
    expect(foreign.statusCode).toBe(404);
    expect(await messagesWith('Role')).toEqual([]);
  });

  it('reaches the current holders of the role at the home, and at its descendants when deep', async () => {
    const w = await world();
    const g = await as(w.groupAdmin.id);
    const home = await w.m('POST', `/api/entities/${w.site.slug}/roles/${w.care.id}/message`, {
      message: 'Care team',
    });
    expect(home.statusCode, home.body).toBe(201);
    expect(home.json().data).toMatchObject({
      audience: { kind: 'role', name: 'Care Assistant at Oak Home', deep: false },
      recipient: null,
      recipient_count: 2,
    });
    expect(await recipientsOf(home.json().data.id)).toEqual(sorted([w.learner.id, w.colleague.id]));
    const group = await g('POST', `/api/entities/${w.org.slug}/roles/${w.care.id}/message`, {
      message: 'Care team everywhere',
      deep: true,
    });
    expect(group.json().data.audience).toEqual({
      kind: 'role',
      name: `Care Assistant at ${w.org.name}`,
      deep: true,
    });
    expect(await recipientsOf(group.json().data.id)).toEqual(
      sorted([w.learner.id, w.colleague.id, w.elm.id]),
    );
    // Nobody holds it at the top itself: nobody to send to, and nothing recorded.
    const top = await g('POST', `/api/entities/${w.org.slug}/roles/${w.care.id}/message`, { message: 'Top' });
    expect(top.statusCode).toBe(422);
    expect(top.json().errors.recipient).toEqual([MessagingErrors.nobody]);
    expect(await messagesWith('Top')).toEqual([]);
  });
});

describe('POST /entities/{slug}/message', () => {
  it('answers 401, 422, 403 without 39, 404 for another organisation', async () => {
    const w = await world();
    const url = `/api/entities/${w.site.slug}/message`;
    expect((await anon('POST', url, { message: 'x' })).statusCode).toBe(401);
    expect((await w.m('POST', url, { message: 'x', deep: 'maybe' })).statusCode).toBe(422);
    expect((await w.l('POST', url, { message: 'Home' })).statusCode).toBe(403);
    const outsider = await as(w.outsider.id);
    const theirs = await outsider('POST', url, { message: 'Home' });
    const nowhere = await outsider('POST', '/api/entities/no-such-home/message', { message: 'Home' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toBe(nowhere.body);
    // The sibling home is outside the site manager's scope.
    expect(
      (await w.m('POST', `/api/entities/${w.sibling.slug}/message`, { message: 'Home' })).statusCode,
    ).toBe(404);
    expect(await messagesWith('Home')).toEqual([]);
  });

  it("reaches the home's current members but the sender, and the descendants' when deep", async () => {
    const w = await world();
    const res = await w.m('POST', `/api/entities/${w.site.slug}/message`, { message: 'All of Oak' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.audience).toEqual({ kind: 'entity', name: 'Oak Home', deep: false });
    expect(await recipientsOf(res.json().data.id)).toEqual(sorted([w.learner.id, w.colleague.id, w.cook.id]));
    const g = await as(w.groupAdmin.id);
    const top = await g('POST', `/api/entities/${w.org.slug}/message`, { message: 'Only the top' });
    expect(top.statusCode).toBe(422);
    const deep = await g('POST', `/api/entities/${w.org.slug}/message`, { message: 'Everyone', deep: true });
    expect(await recipientsOf(deep.json().data.id)).toEqual(
      sorted([w.manager.id, w.learner.id, w.colleague.id, w.cook.id, w.elm.id]),
    );
  });
});

describe('POST /tags/{id}/message', () => {
  async function tagOf(entityId: number, userIds: number[]) {
    const tag = await h.db
      .insertInto('tags')
      .values({ entity_id: entityId, name: 'Night shift' })
      .returningAll()
      .executeTakeFirstOrThrow();
    await h.db
      .insertInto('tag_users')
      .values(userIds.map((user_id) => ({ tag_id: tag.id, user_id })))
      .execute();
    return tag;
  }

  it('answers 401, 422, 403 without 97 or 39, 404 for another organisation', async () => {
    const w = await world();
    const tag = await tagOf(w.site.id, [w.learner.id]);
    const url = `/api/tags/${tag.id}/message`;
    expect((await anon('POST', url, { message: 'x' })).statusCode).toBe(401);
    expect((await w.m('POST', url, { message: 'x', messageTypes: 'mail' })).statusCode).toBe(422);
    const only39 = await buildUser(h.db, { entityId: w.site.id, permissions: [DASHBOARD] });
    expect((await (await as(only39.id))('POST', url, { message: 'Tag' })).statusCode).toBe(403);
    const only97 = await buildUser(h.db, { entityId: w.site.id, permissions: [TAGS_USE] });
    expect((await (await as(only97.id))('POST', url, { message: 'Tag' })).statusCode).toBe(403);
    expect((await (await as(w.outsider.id))('POST', url, { message: 'Tag' })).statusCode).toBe(404);
    expect(await messagesWith('Tag')).toEqual([]);
  });

  it("reaches the tag's linked people inside its home, but the sender", async () => {
    const w = await world();
    // A link to someone outside the tag's home is not in the tag's list, so the message does not reach them either.
    const tag = await tagOf(w.site.id, [w.learner.id, w.cook.id, w.manager.id, w.elm.id]);
    const res = await w.m('POST', `/api/tags/${tag.id}/message`, { message: 'Nights' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      audience: { kind: 'tag', name: 'Night shift', deep: false },
      recipient_count: 2,
    });
    expect(await recipientsOf(res.json().data.id)).toEqual(sorted([w.learner.id, w.cook.id]));
  });
});

describe('POST /system/message/{id}', () => {
  it('answers 401, 422, 403 to all but super admins, 404 for an organisation they may not see', async () => {
    const w = await world();
    expect((await anon('POST', '/api/system/message/all', { message: 'x' })).statusCode).toBe(401);
    const admin = await buildUser(h.db, { superAdmin: true });
    const a = await as(admin.id);
    expect((await a('POST', '/api/system/message/all', { message: ' ' })).statusCode).toBe(422);
    expect((await w.m('POST', '/api/system/message/all', { message: 'System' })).statusCode).toBe(403);
    expect((await w.m('POST', `/api/system/message/${w.site.id}`, { message: 'System' })).statusCode).toBe(
      403,
    );
    const outsider = await as(w.outsider.id);
    expect(
      (await outsider('POST', `/api/system/message/${w.org.slug}`, { message: 'System' })).statusCode,
    ).toBe(404);
    expect((await a('POST', '/api/system/message/no-such-org', { message: 'System' })).statusCode).toBe(404);
    expect(await messagesWith('System')).toEqual([]);
  });

  it('reaches everyone with `all`, and an organisation with its descendants when deep', async () => {
    const w = await world();
    const admin = await buildUser(h.db, { superAdmin: true });
    const a = await as(admin.id);
    const everyone = await a('POST', '/api/system/message/all', { message: 'Maintenance tonight' });
    expect(everyone.statusCode, everyone.body).toBe(201);
    const users = await h.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(everyone.json().data).toMatchObject({
      audience: { kind: 'system', name: 'Everyone', deep: true },
      recipient_count: Number(users.n) - 1,
    });
    const org = await a('POST', `/api/system/message/${w.org.id}`, { message: 'Group', deep: true });
    expect(org.json().data.audience).toEqual({ kind: 'system', name: w.org.name, deep: true });
    expect(await recipientsOf(org.json().data.id)).toEqual(
      sorted([w.manager.id, w.learner.id, w.colleague.id, w.cook.id, w.elm.id, w.groupAdmin.id]),
    );
    const site = await a('POST', `/api/system/message/${w.site.slug}`, { message: 'Site' });
    expect(await recipientsOf(site.json().data.id)).toEqual(
      sorted([w.manager.id, w.learner.id, w.colleague.id, w.cook.id]),
    );
    const learnerInbox = await w.l('GET', `/api/users/${w.learner.id}/received/messages`);
    expect(learnerInbox.json().data.map((m: { message: string }) => m.message)).toEqual([
      'Site',
      'Group',
      'Maintenance tonight',
    ]);
  });
});

describe("e-mail with messageTypes ['mail']", () => {
  it('enqueues one job per recipient with the send, and the worker mails each once, escaped', async () => {
    const w = await world();
    const text = 'Fire drill at <b>3pm</b> & bring badges\nSee you there';
    const res = await w.m('POST', `/api/entities/${w.site.slug}/message`, {
      message: text,
      messageTypes: ['mail'],
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id;
    expect(res.json().data.mailed).toBe(true);
    const jobs = await mailJobs(id);
    expect(jobs.map((j) => j.unique_key)).toEqual(
      sorted([w.learner.id, w.colleague.id, w.cook.id])
        .map((r) => `${MESSAGE_MAIL}:${id}:${r}`)
        .sort(),
    );
    const now = Date.now();
    await runDueJobs(h.deps, new Date(now + 1000));
    await runDueJobs(h.deps, new Date(now + 2000));
    const mails = await h.db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('template', '=', 'message')
      .where('to_address', 'in', [w.learner.email, w.colleague.email, w.cook.email, w.manager.email])
      .execute();
    expect(mails.map((m) => m.to_address).sort()).toEqual(
      [w.learner.email, w.colleague.email, w.cook.email].sort(),
    );
    const mail = mails.find((m) => m.to_address === w.learner.email);
    expect(mail?.subject).toBe('New message from Sam Manager');
    expect(mail?.text_body).toContain('Fire drill at <b>3pm</b> & bring badges');
    expect(mail?.text_body).toContain('http://localhost:3000/messages');
    expect(mail?.html_body).toContain('Fire drill at &#60;b&#62;3pm&#60;/b&#62; &#38; bring badges');
    expect(mail?.html_body).not.toContain('<b>3pm');
    const received = await w.l('GET', `/api/users/${w.learner.id}/received/messages`);
    expect(received.json().data[0]).toMatchObject({ id, mailed: true });
  });

  it('enqueues nothing without mail, and nothing at all when the send fails', async () => {
    const w = await world();
    const plain = await w.m('POST', `/api/entities/${w.site.slug}/message`, { message: 'No mail' });
    expect(await mailJobs(plain.json().data.id)).toEqual([]);
    // The second recipient's job fails to insert: the message, its recipients and the first job all roll back.
    await crashOnce(h.db, 'jobs', 2, `NEW.name = '${MESSAGE_MAIL}'`);
    const failed = await w.m('POST', `/api/entities/${w.site.slug}/message`, {
      message: 'Doomed',
      messageTypes: ['mail'],
    });
    expect(failed.statusCode).toBe(500);
    expect(await messagesWith('Doomed')).toEqual([]);
    const doomedJobs = await h.db
      .selectFrom('jobs')
      .select('id')
      .where('name', '=', MESSAGE_MAIL)
      .where(sql<boolean>`NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = (payload->>'message_id')::int)`)
      .execute();
    expect(doomedJobs).toEqual([]);
  });
});

describe('sendMessageOnBehalf (the help widget)', () => {
  it('sends from a user to people outside their scope through the same path, and they can reply', async () => {
    const w = await world();
    const support = await buildUser(h.db, { name: 'Sue Support' });
    const sent = await sendMessageOnBehalf(h.db, {
      senderId: w.learner.id,
      recipientIds: [support.id, w.learner.id],
      text: '  I cannot open my course  ',
      mail: true,
    });
    expect(sent).toMatchObject({
      message: 'I cannot open my course',
      audience: { kind: 'person', name: 'Sue Support', deep: false },
      recipient_count: 1,
      mailed: true,
    });
    expect(await mailJobs(sent.id)).toHaveLength(1);
    const s = await as(support.id);
    const reply = await send(s, support.id, w.learner.id, 'Try again now');
    expect(reply.statusCode, reply.body).toBe(201);
  });
});

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  ADMIN,
  apiGet,
  BASE,
  bearer,
  checkPage,
  client,
  launch,
  MANAGER,
  NARROW,
  newPage,
  signIn,
  toast,
} from './lib.mjs';

/**
 * Messaging (issue 14, spec 2 §7, §8): the Oakfield House manager (Sam Patel) writes to the demo learner (Casey Lee);
 * Casey sees the unread badge, opens the conversation (which marks Sam's messages read), marks the new one unread and
 * read again, and replies; Sam reads the reply and deletes it after a confirmation. The same pages at 375 px: the
 * lists, then the conversation alone with a way back. The demo seed gives both a conversation with one unread each
 * (server/src/messaging/demo.ts): the counts here are read from the API, not assumed. At the end every message this
 * file sent is deleted (both copies) and what was unread at the start is unread again, so no other file sees a change.
 */

const LEARNER = { email: 'learner@demo.test', password: ADMIN.password };
const MARK = `e2e-msg-${Date.now()}`;
const FIRST = `Hello Casey, your fire safety refresher is due (${MARK}). Book it here: https://example.test/fire`;
const REPLY = `Thanks Sam, booked for Friday (${MARK}).`;

let browser;
/** Per demo user: API caller, id, and the received messages unread before this file ran. */
const people = new Map();
async function mailbox(who) {
  const api = client(await bearer(who, 'e2e messaging'));
  const me = (await api('GET', '/auth/user')).id;
  return { api, me };
}
const unreadIds = async ({ api, me }, from) =>
  (await api('GET', `/users/${me}/received/${from ? `${from}/` : ''}messages?unread=1&per_page=100`)).map(
    (m) => m.id,
  );

before(async () => {
  browser = await launch();
  for (const who of [MANAGER, LEARNER]) {
    const box = await mailbox(who);
    people.set(who.email, { ...box, unread: await unreadIds(box) });
  }
});
after(async () => {
  for (const { api, me, unread } of people.values()) {
    for (const box of ['received', 'sent']) {
      const list = await api('GET', `/users/${me}/${box}/messages?search=${MARK}&per_page=100`);
      for (const m of list) await api('DELETE', `/users/${me}/messages/${m.id}`);
    }
    for (const id of unread) await api('PATCH', `/users/${me}/received/messages/${id}`, { read: false });
    const sorted = (ids) => [...ids].sort((a, b) => a - b);
    assert.deepEqual(sorted(await unreadIds({ api, me })), sorted(unread), 'unread as before this file ran');
  }
  await browser?.close();
});

/** The side navigation's Messages entry, named with its unread count when it has one. */
const messagesLink = (page, unread) =>
  page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: unread ? `Messages (${unread} unread)` : 'Messages', exact: true });
const unreadText = (n) =>
  n === 0 ? 'No unread messages.' : `${n} unread ${n === 1 ? 'message' : 'messages'}.`;

describe('messaging', () => {
  it('manager writes, learner reads (badge, read on opening) and replies, manager reads and deletes', async () => {
    const sam = people.get(MANAGER.email);
    const casey = people.get(LEARNER.email);
    const manager = await newPage(browser);
    await signIn(manager.page, MANAGER);
    await manager.page.goto(`${BASE}/messages`);
    await manager.page.getByRole('heading', { name: 'Messages', level: 1 }).waitFor();
    await manager.page.getByRole('button', { name: 'New message' }).click();
    const dialog = manager.page.getByRole('dialog', { name: 'New message' });
    await dialog.getByRole('radio', { name: 'People' }).check();
    await dialog.getByRole('combobox', { name: /Add a person/ }).fill('Casey');
    await manager.page
      .getByRole('option', { name: /Casey Lee/ })
      .first()
      .click();
    await dialog.getByText(/To 1 person/).waitFor();
    // The field's own error beside it first.
    await dialog.getByRole('button', { name: 'Send message' }).click();
    await dialog.getByText('Write a message.').waitFor();
    await dialog.getByLabel(/^Message/).fill(FIRST);
    await checkPage(manager.page, 'messages-compose');
    await dialog.getByRole('button', { name: 'Send message' }).click();
    await toast(manager.page, /^Message sent to Casey Lee/);
    await dialog.waitFor({ state: 'detached' });
    await manager.page.getByRole('tab', { name: 'Sent' }).click();
    await manager.page
      .getByRole('list', { name: 'Sent messages' })
      .getByText(MARK, { exact: false })
      .first()
      .waitFor();

    const learner = await newPage(browser);
    await signIn(learner.page, LEARNER);
    const caseyUnread = casey.unread.length + 1;
    await messagesLink(learner.page, caseyUnread).waitFor();
    await learner.page.getByTestId('unread-count').getByText(String(caseyUnread)).waitFor();
    await messagesLink(learner.page, caseyUnread).click();
    await learner.page.waitForURL(`${BASE}/messages`);
    const inbox = learner.page.getByRole('list', { name: 'Received messages' });
    const row = inbox.getByRole('button', { name: /^Unread,\s*Sam Patel/ }).filter({ hasText: MARK });
    await row.waitFor();
    await learner.page.getByTestId('unread-summary').getByText(unreadText(caseyUnread)).waitFor();
    await checkPage(learner.page, 'messages-received');

    // Opening the conversation marks what Sam sent unread in it read (the new one and any the seed left unread).
    const fromSam = (await unreadIds(casey, sam.me)).length;
    assert.ok(fromSam >= 1);
    await row.click();
    const thread = learner.page.getByRole('list', { name: 'Messages with Sam Patel' });
    const mine = thread.getByRole('listitem').filter({ hasText: FIRST });
    await mine.waitFor();
    const link = mine.getByRole('link', { name: 'https://example.test/fire' });
    assert.equal(await link.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await link.getAttribute('target'), '_blank');
    const afterOpening = caseyUnread - fromSam;
    await learner.page.getByTestId('unread-summary').getByText(unreadText(afterOpening)).waitFor();
    await messagesLink(learner.page, afterOpening).waitFor();
    await inbox
      .getByRole('button', { name: /^Sam Patel/ })
      .filter({ hasText: MARK })
      .waitFor();
    await mine.getByRole('button', { name: 'Mark as unread' }).click();
    await toast(learner.page, 'Marked as unread.');
    await messagesLink(learner.page, afterOpening + 1).waitFor();
    await mine.getByRole('button', { name: 'Mark as read' }).click();
    await messagesLink(learner.page, afterOpening).waitFor();

    await learner.page.getByLabel('Reply to Sam Patel').fill(REPLY);
    await learner.page.getByRole('button', { name: 'Send reply' }).click();
    await toast(learner.page, /^Reply sent to Sam Patel/);
    await thread.getByText(REPLY).waitFor();
    await checkPage(learner.page, 'messages-conversation');

    await manager.page.goto(`${BASE}/messages`);
    const samUnread = sam.unread.length + 1;
    await messagesLink(manager.page, samUnread).waitFor();
    await manager.page
      .getByRole('list', { name: 'Received messages' })
      .getByRole('button', { name: /^Unread,\s*Casey Lee/ })
      .filter({ hasText: REPLY })
      .click();
    const managerThread = manager.page.getByRole('list', { name: 'Messages with Casey Lee' });
    await managerThread.getByText(REPLY).waitFor();
    await managerThread.getByText(FIRST).waitFor();
    const reply = managerThread.getByRole('listitem').filter({ hasText: REPLY });
    await reply.getByRole('button', { name: /^Delete/ }).click();
    const confirm = manager.page.getByRole('alertdialog', { name: 'Delete this message?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await reply.waitFor();
    await reply.getByRole('button', { name: /^Delete/ }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toast(manager.page, 'Message deleted.');
    await reply.waitFor({ state: 'detached' });
    // Deleting is per copy: Casey still has the reply among their sent messages.
    await learner.page.reload();
    await learner.page.getByRole('list', { name: 'Messages with Sam Patel' }).getByText(REPLY).waitFor();

    assert.deepEqual(manager.errors, []);
    assert.deepEqual(learner.errors, []);
    await manager.context.close();
    await learner.context.close();
  });

  it('works at 375 px: the lists, then the conversation alone, and compose', async () => {
    const { page, context, errors } = await newPage(browser, NARROW);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/messages?box=sent`);
    const sentList = page.getByRole('list', { name: 'Sent messages' });
    await sentList.getByText(MARK, { exact: false }).first().waitFor();
    await checkPage(page, 'messages-sent-375');
    await sentList
      .getByRole('button', { name: /To Casey Lee/ })
      .first()
      .click();
    const thread = page.getByRole('list', { name: 'Messages with Casey Lee' });
    await thread.getByText(FIRST).waitFor();
    // One column: the list is hidden while the conversation shows.
    assert.equal(await sentList.isVisible(), false);
    await checkPage(page, 'messages-conversation-375');
    await page.getByRole('button', { name: 'Back to messages' }).click();
    await sentList.waitFor();
    await page.getByRole('button', { name: 'New message' }).click();
    await page
      .getByRole('dialog', { name: 'New message' })
      .getByLabel(/^Message/)
      .waitFor();
    await checkPage(page, 'messages-compose-375');
    assert.deepEqual(errors, []);
    await context.close();

    // The learner's received list at 375 px: Sam's message, read in the first test.
    const learner = await newPage(browser, NARROW);
    await signIn(learner.page, LEARNER);
    await learner.page.goto(`${BASE}/messages`);
    await learner.page
      .getByRole('list', { name: 'Received messages' })
      .getByRole('button', { name: /^Sam Patel/ })
      .filter({ hasText: MARK })
      .waitFor();
    await checkPage(learner.page, 'messages-received-375');
    assert.deepEqual(learner.errors, []);
    await learner.context.close();
  });

  it('"message these people" opens the compose dialog addressed to a dashboard list and to the active users', async () => {
    const { page, context, errors } = await newPage(browser);
    await signIn(page, MANAGER);
    await page.goto(`${BASE}/manager-dashboard`);
    const outOfDate = page.locator('#out-of-date');
    const me = (await apiGet(page, '/auth/user')).body.data.id;
    // Everyone on the list, not only the rows shown: what the server lists, less the sender.
    const listed = page.waitForResponse((r) => r.url().includes('/api/dashboards/manager/people'));
    await outOfDate.getByRole('button', { name: 'Message these people' }).click({ timeout: 20_000 });
    const body = await (await listed).json();
    assert.equal(body.meta.last_page, 1, 'the demo home has fewer than 100 people out of date');
    const count = body.data.filter((p) => p.id !== me).length;
    assert.ok(count > 1, 'the demo has people out of date');
    const dialog = page.getByRole('dialog', { name: 'New message' });
    await dialog.getByText(`To ${count} people`, { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });

    await page.goto(`${BASE}/active-users`);
    await page.getByRole('button', { name: 'Message these people' }).click();
    const toActive = page.getByRole('dialog', { name: 'New message' });
    // The active users less the sender: the learner of the first test is on it, the manager is not.
    await toActive.getByRole('button', { name: 'Remove Casey Lee' }).waitFor();
    assert.equal(await toActive.getByRole('button', { name: 'Remove Sam Patel' }).count(), 0);
    await checkPage(page, 'messages-compose-active-users');
    assert.deepEqual(errors, []);
    await context.close();
  });
});

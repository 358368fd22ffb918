import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { seedDemo } from '../demo/seed';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
  await seedDemo(h.db);
}, 120_000);
afterAll(async () => h?.close());

const userId = async (email: string) =>
  (await h.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirstOrThrow()).id;

describe('messaging demo data', () => {
  it('gives the learner and the manager a conversation with one unread message each, through the API', async () => {
    const learner = await userId('learner@demo.test');
    const manager = await userId('manager@demo.test');
    const l = await clientFor(h.app, h.db, learner);
    const received = (await l('GET', `/api/users/${learner}/received/messages`)).json();
    expect(received.unread_message_count).toBe(1);
    expect(
      received.data.map(
        (m: { sender: { name: string }; audience: { kind: string }; read_at: string | null }) => [
          m.sender.name,
          m.audience.kind,
          m.read_at === null,
        ],
      ),
    ).toEqual([
      ['Sam Patel', 'person', true],
      ['Sam Patel', 'person', false],
      ['Sam Patel', 'entity', false],
    ]);
    const conversation = (await l('GET', `/api/users/${learner}/sent/${manager}/messages`)).json();
    expect(conversation.data).toHaveLength(2);
    const m = await clientFor(h.app, h.db, manager);
    const inbox = (await m('GET', `/api/users/${manager}/received/messages`)).json();
    expect(inbox.unread_message_count).toBe(1);
    const sent = (await m('GET', `/api/users/${manager}/sent/messages`)).json();
    expect(sent.data.at(-1)).toMatchObject({
      audience: { kind: 'entity', name: 'Oakfield House', deep: false },
      read_count: 1,
    });
    expect(sent.data.at(-1).recipient_count).toBeGreaterThan(10);
  });
});

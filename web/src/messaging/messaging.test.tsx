import {
  MESSAGE_MAX_RECIPIENTS,
  Messages,
  MessagingPerm,
  Perm,
  type ReceivedMessage,
  type SentMessage,
  TagsPerm,
} from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkPermission, setUser } from '../app/auth';
import { modalStore } from '../app/modal';
import { notificationsStore } from '../app/notifications';
import { stubResizeObserver } from '../test/dom';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import { ComposeDialog, openCompose } from './ComposeDialog';
import { mergeConversation } from './Conversation';
import { type Can, ComposeText, composeKinds, emptyCompose, planSend, sentNotice } from './compose';
import { collectPeople } from './MessagePeople';
import MessagesPage from './MessagesPage';
import { linkParts, MessageText } from './text';

type Call = ApiCall;
let calls: Call[] = [];
let handler: (call: Call) => Response | undefined = () => undefined;
const writes = () => calls.filter((c) => c.method !== 'GET');
const notices = () => notificationsStore.get().map((n) => n.message);

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
  modalStore.set({});
  stubResizeObserver();
  calls = stubApi((c) => handler(c));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
});

const canWith =
  (ids: number[], superAdmin = false): Can =>
  (want, mode = 'all') =>
    checkPermission(
      { super_admin: superAdmin, permissions: ids.map((id) => ({ id, slug: '' })) },
      null,
      want,
      mode,
    );

describe('message text', () => {
  it('makes http(s) addresses links, leaves sentence punctuation and other schemes as text', () => {
    const text =
      'See https://example.test/a?b=1. Or (http://x.test/p_(1)) and javascript:alert(1) or ftp://x.test, bye';
    const parts = linkParts(text);
    expect(parts.map((p) => p.text).join('')).toBe(text);
    expect(parts.filter((p) => p.kind === 'link').map((p) => p.text)).toEqual([
      'https://example.test/a?b=1',
      'http://x.test/p_(1)',
    ]);
    expect(linkParts('no links here')).toEqual([{ kind: 'text', text: 'no links here' }]);
    expect(linkParts('')).toEqual([]);
  });

  it('renders links in a new tab without the opener, and markup as the text it is', () => {
    render(<MessageText text={'<b>Fire drill</b> at 3pm\nDetails: https://example.test/drill'} />);
    const link = screen.getByRole('link', { name: 'https://example.test/drill' });
    expect(link).toHaveAttribute('href', 'https://example.test/drill');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(screen.getByText(/<b>Fire drill<\/b> at 3pm/)).toBeInTheDocument();
    expect(document.querySelector('b')).toBeNull();
  });
});

describe('compose rules', () => {
  it('says what a send did, in words', () => {
    const body = { message: 'Hi' };
    expect(
      sentNotice({ kind: 'people', body: { ...body, recipient: [1] } }, [{ label: 'Casey Lee' }], 'Home'),
    ).toBe('Message sent to Casey Lee.');
    expect(
      sentNotice(
        { kind: 'people', body: { ...body, recipient: [1, 2], messageTypes: ['mail'] } },
        [{ label: 'Casey Lee' }, { label: 'Robin Hale' }],
        'Home',
      ),
    ).toBe('Message sent to 2 people and e-mailed.');
    expect(sentNotice({ kind: 'entity', slug: 'oak', body }, [], 'Home')).toBe(
      'Message sent to everyone at the home.',
    );
    expect(sentNotice({ kind: 'role', slug: 'oak', roleId: 3, body }, [], 'Home')).toBe(
      'Message sent to everyone with that job role.',
    );
  });

  it('offers only the audiences the permissions allow (contracts messaging.ts)', () => {
    expect(composeKinds(canWith([104]), false)).toEqual([]);
    // 81 sends to a list of people: from a list it was given, or from the users search with 21.
    expect(composeKinds(canWith([MessagingPerm.activeUsers]), false)).toEqual([]);
    expect(composeKinds(canWith([MessagingPerm.activeUsers]), false, true)).toEqual(['people']);
    expect(composeKinds(canWith([MessagingPerm.activeUsers, Perm.searchUsers]), false)).toEqual(['people']);
    expect(composeKinds(canWith([MessagingPerm.dashboard]), false)).toEqual(['entity']);
    expect(
      composeKinds(
        canWith([
          MessagingPerm.dashboard,
          Perm.searchUsers,
          Perm.readOnlyRoles,
          MessagingPerm.tagsUse,
          TagsPerm.view,
        ]),
        false,
      ),
    ).toEqual(['people', 'role', 'entity', 'tag']);
    // A tag needs 97 with 39.
    expect(composeKinds(canWith([MessagingPerm.tagsUse, TagsPerm.view]), false)).toEqual([]);
    expect(composeKinds(canWith([], true), true)).toEqual(['people', 'role', 'entity', 'tag', 'system']);
  });

  it('checks the form and says where it goes', () => {
    const casey = { id: 41, label: 'Casey Lee' };
    const oakfield = { id: 2, slug: 'oakfield', label: 'Oakfield House' };
    const bad = (state: ReturnType<typeof emptyCompose>) => {
      const out = planSend(state, 'Organisation');
      if (out.ok) throw new Error('expected errors');
      return out.errors;
    };
    expect(bad(emptyCompose('people'))).toEqual({
      message: ['Write a message.'],
      recipient: [ComposeText.choosePeople],
    });
    const many = Array.from({ length: MESSAGE_MAX_RECIPIENTS + 1 }, (_, i) => ({
      id: i + 1,
      label: `P${i}`,
    }));
    expect(bad({ ...emptyCompose('people', many), message: 'Hi' })).toEqual({
      recipient: [ComposeText.tooManyPeople],
    });
    expect(bad({ ...emptyCompose('people', [casey]), message: 'x'.repeat(5001) }).message).toEqual([
      'A message can be at most 5000 characters.',
    ]);
    expect(bad({ ...emptyCompose('role'), message: 'Hi' })).toEqual({ entity: ['Choose an organisation.'] });
    expect(bad({ ...emptyCompose('role'), entity: oakfield, message: 'Hi' })).toEqual({
      role: [ComposeText.chooseRole],
    });
    expect(bad({ ...emptyCompose('tag'), entity: oakfield, message: 'Hi' })).toEqual({
      tag: [ComposeText.chooseTag],
    });

    expect(
      planSend({ ...emptyCompose('people', [casey]), message: '  Hello  ', mail: true }, 'Home'),
    ).toEqual({
      ok: true,
      plan: { kind: 'people', body: { message: 'Hello', recipient: [41], messageTypes: ['mail'] } },
    });
    expect(
      planSend({ ...emptyCompose('people', [casey, { id: 42, label: 'Robin' }]), message: 'Hi' }, 'Home'),
    ).toEqual({
      ok: true,
      plan: { kind: 'people', body: { message: 'Hi', recipient: [41, 42] } },
    });
    expect(planSend({ ...emptyCompose('role'), entity: oakfield, roleId: 3, message: 'Hi' }, 'Home')).toEqual(
      {
        ok: true,
        plan: { kind: 'role', slug: 'oakfield', roleId: 3, body: { message: 'Hi', deep: true } },
      },
    );
    expect(
      planSend({ ...emptyCompose('entity'), entity: oakfield, deep: false, message: 'Hi' }, 'Home'),
    ).toEqual({
      ok: true,
      plan: { kind: 'entity', slug: 'oakfield', body: { message: 'Hi', deep: false } },
    });
    expect(planSend({ ...emptyCompose('tag'), entity: oakfield, tagId: 5, message: 'Hi' }, 'Home')).toEqual({
      ok: true,
      plan: { kind: 'tag', tagId: 5, body: { message: 'Hi' } },
    });
    expect(planSend({ ...emptyCompose('system'), message: 'Hi' }, 'Home')).toEqual({
      ok: true,
      plan: { kind: 'system', target: 'all', body: { message: 'Hi', deep: false } },
    });
    expect(
      planSend(
        { ...emptyCompose('system'), systemTarget: 'entity', entity: oakfield, deep: true, message: 'Hi' },
        'Home',
      ),
    ).toEqual({
      ok: true,
      plan: { kind: 'system', target: 'oakfield', body: { message: 'Hi', deep: true } },
    });
    expect(bad({ ...emptyCompose('system'), systemTarget: 'entity', message: 'Hi' })).toEqual({
      entity: ['Choose an organisation.'],
    });
  });

  it('collects everyone on a paged list but the sender, up to the most one message may name', async () => {
    const asked: number[] = [];
    const long = await collectPeople(7, async (page, perPage) => {
      asked.push(page);
      return {
        data: Array.from({ length: perPage }, (_, i) => ({
          id: (page - 1) * perPage + i + 1,
          name: `P${i}`,
        })),
        meta: { last_page: 9 },
      };
    });
    expect(long.people).toHaveLength(MESSAGE_MAX_RECIPIENTS);
    expect(long.people.some((p) => p.id === 7)).toBe(false);
    expect(long.cut).toBe(true);
    expect(asked).toEqual([1, 2, 3, 4, 5, 6]);
    // 501 on the list with the sender among them: everyone else fits.
    const exact = await collectPeople(7, async (page) => ({
      data: Array.from({ length: page < 6 ? 100 : 1 }, (_, i) => ({
        id: (page - 1) * 100 + i + 1,
        name: 'P',
      })),
      meta: { last_page: 6 },
    }));
    expect(exact).toMatchObject({ cut: false });
    expect(exact.people).toHaveLength(MESSAGE_MAX_RECIPIENTS);
    const few = await collectPeople(7, async () => ({
      data: [
        { id: 7, name: 'Sam Carer' },
        { id: 1, name: 'Casey' },
      ],
      meta: { last_page: 1 },
    }));
    expect(few).toEqual({ people: [{ id: 1, label: 'Casey' }], cut: false });
  });
});

describe('the compose dialog', () => {
  function renderCompose() {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <ComposeDialog />
      </QueryClientProvider>,
    );
  }

  it('opens addressed to "these people", shows errors beside the fields, and sends with e-mail', async () => {
    setUser(makeUser({ permissions: [{ id: MessagingPerm.activeUsers, slug: 'p81' }] }));
    let posts = 0;
    handler = (c) => {
      if (c.method === 'POST' && c.path === '/users/7/message') {
        posts += 1;
        if (posts === 1)
          return json(422, {
            message: 'The recipient is not someone you may message.',
            errors: { recipient: ['The recipient is not someone you may message.'] },
          });
        return json(201, { data: {}, message: Messages.sentMessagesUpdated });
      }
      return undefined;
    };
    const user = userEvent.setup();
    renderCompose();
    openCompose({
      people: [
        { id: 41, label: 'Casey Lee' },
        { id: 42, label: 'Robin Hale' },
      ],
    });
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    expect(within(dialog).getByText(/To 2 people/)).toBeInTheDocument();
    // Only people: no choice of audience without 39.
    expect(within(dialog).queryByRole('radio')).toBeNull();
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByText('Write a message.')).toBeInTheDocument();
    expect(writes()).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Message/), 'Please book your fire safety refresher.');
    // The field's error goes as soon as it is written in.
    expect(within(dialog).queryByText('Write a message.')).toBeNull();
    await user.click(within(dialog).getByLabelText('Also send by e-mail'));
    await user.click(within(dialog).getByRole('button', { name: 'Remove Robin Hale' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findAllByText('The recipient is not someone you may message.')).toHaveLength(
      2,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    // What happened, in words (issue 33 §1), not the API's "Sent messages updated.".
    await waitFor(() => expect(notices()).toContain('Message sent to Casey Lee and e-mailed.'));
    expect(notices()).not.toContain(Messages.sentMessagesUpdated);
    expect(writes()[1]).toMatchObject({
      method: 'POST',
      path: '/users/7/message',
      body: { message: 'Please book your fire safety refresher.', recipient: [41], messageTypes: ['mail'] },
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('lets a super admin message everyone (POST /system/message/all)', async () => {
    setUser(makeUser({ super_admin: true }));
    handler = (c) =>
      c.method === 'POST' ? json(201, { data: {}, message: Messages.sentMessagesUpdated }) : undefined;
    const user = userEvent.setup();
    renderCompose();
    openCompose();
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    await user.click(within(dialog).getByRole('radio', { name: 'Everyone (system message)' }));
    expect(within(dialog).getByLabelText('Who receives it')).toHaveValue('all');
    await user.type(within(dialog).getByLabelText(/^Message/), 'The platform is down for upgrade at 22:00.');
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/system/message/all',
      body: { message: 'The platform is down for upgrade at 22:00.', deep: false },
    });
  });

  it('sends to a job role of the organisation in view when the user cannot search organisations', async () => {
    setUser(
      makeUser({
        permissions: [MessagingPerm.dashboard, Perm.viewRoles].map((id) => ({ id, slug: `p${id}` })),
      }),
    );
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/oakfield/roles'))
        return json(200, paged([{ id: 3, name: 'Care Assistant' }]));
      if (c.method === 'POST') return json(201, { data: {}, message: Messages.sentMessagesUpdated });
      return undefined;
    };
    const user = userEvent.setup();
    renderCompose();
    openCompose();
    const dialog = await screen.findByRole('dialog', { name: 'New message' });
    await user.click(within(dialog).getByRole('radio', { name: 'A job role' }));
    expect(within(dialog).getByText('Oakfield House')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/^Message/), 'Team meeting at 2pm.');
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    expect(await within(dialog).findByText(ComposeText.chooseRole)).toBeInTheDocument();
    await user.selectOptions(await within(dialog).findByLabelText(/^Job role/), 'Care Assistant');
    await user.click(within(dialog).getByRole('button', { name: 'Send message' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    expect(writes()[0]).toMatchObject({
      method: 'POST',
      path: '/entities/oakfield/roles/3/message',
      body: { message: 'Team meeting at 2pm.', deep: true },
    });
  });
});

const received = (over: Partial<ReceivedMessage> = {}): ReceivedMessage => ({
  id: 11,
  message: 'Your fire safety course expires next week: https://example.test/courses/1',
  sender: { id: 2, uuid: 'u-2', name: 'Morgan Manager' },
  audience: { kind: 'person', name: 'Sam Carer', deep: false },
  sent_at: '2026-11-20T09:00:00.000Z',
  read_at: null,
  mailed: false,
  ...over,
});
const sent = (over: Partial<SentMessage> = {}): SentMessage => ({
  id: 12,
  message: 'Thanks, booked it.',
  audience: { kind: 'person', name: 'Morgan Manager', deep: false },
  recipient: { id: 2, uuid: 'u-2', name: 'Morgan Manager' },
  recipient_count: 1,
  read_count: 0,
  sent_at: '2026-11-20T10:00:00.000Z',
  mailed: false,
  ...over,
});

describe('conversations', () => {
  it('merge both sides by time and hold back what an unloaded page could still fill', () => {
    const r1 = received({ id: 1, sent_at: '2026-11-20T09:00:00.000Z' });
    const r2 = received({ id: 2, sent_at: '2026-11-20T11:00:00.000Z' });
    const s1 = sent({ id: 3, sent_at: '2026-11-20T08:00:00.000Z' });
    const s2 = sent({ id: 4, sent_at: '2026-11-20T10:00:00.000Z' });
    const all = mergeConversation({ items: [r2, r1], complete: true }, { items: [s2, s1], complete: true });
    expect(all.map((i) => i.message.id)).toEqual([3, 1, 4, 2]);
    // The sent side has older pages: nothing before its oldest loaded message (10:00) shows yet.
    const partial = mergeConversation({ items: [r2, r1], complete: true }, { items: [s2], complete: false });
    expect(partial.map((i) => i.message.id)).toEqual([4, 2]);
  });
});

describe('/messages', () => {
  function renderPage(path = '/messages') {
    const router = createMemoryRouter([{ path: '/messages', Component: MessagesPage }], {
      initialEntries: [path],
    });
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    return router;
  }

  it('marks unread ones, opens the conversation (read on opening), marks unread, replies and deletes', async () => {
    setUser(makeUser());
    let readAt: string | null = null;
    let deleted = false;
    handler = (c) => {
      const mine = () => (deleted ? [] : [received({ read_at: readAt })]);
      if (c.method === 'GET' && c.path.startsWith('/users/7/received/messages'))
        return json(200, { ...paged(mine()), unread_message_count: mine().filter((m) => !m.read_at).length });
      if (c.method === 'GET' && c.path.startsWith('/users/7/received/2/messages'))
        return json(200, { ...paged(mine()), unread_message_count: readAt ? 0 : 1 });
      if (c.method === 'GET' && c.path.startsWith('/users/7/sent/2/messages'))
        return json(200, paged([sent()]));
      if (c.method === 'GET' && c.path.startsWith('/users/7/sent/messages'))
        return json(200, paged([sent()]));
      if (c.method === 'PATCH' && c.path === '/users/7/received/messages/11') {
        readAt = (c.body as { read: boolean }).read ? '2026-11-21T09:00:00.000Z' : null;
        return json(200, { data: received({ read_at: readAt }), message: Messages.receivedMessagesUpdated });
      }
      if (c.method === 'POST' && c.path === '/users/7/message')
        return json(201, { data: sent({ id: 13 }), message: Messages.sentMessagesUpdated });
      if (c.method === 'DELETE' && c.path === '/users/7/messages/11') {
        deleted = true;
        return json(200, { message: Messages.messageDeleted });
      }
      return undefined;
    };
    const user = userEvent.setup();
    const router = renderPage();
    const list = await screen.findByRole('list', { name: 'Received messages' });
    const row = within(list).getByRole('button', { name: /^Unread,\s*Morgan Manager/ });
    expect(within(row).getByText('Unread,')).toHaveClass('sr-only');
    expect(await screen.findByTestId('unread-summary')).toHaveTextContent('1 unread message.');
    await user.click(screen.getByLabelText('Unread only'));
    await waitFor(() => expect(router.state.location.search).toBe('?unread=1'));
    await waitFor(() =>
      expect(calls.some((c) => c.path.startsWith('/users/7/received/messages?page=1&unread=1'))).toBe(true),
    );
    await user.type(screen.getByLabelText('Search received messages'), 'fire');
    await waitFor(() => expect(router.state.location.search).toBe('?search=fire&unread=1'));
    await waitFor(() =>
      expect(
        calls.some((c) => c.path.startsWith('/users/7/received/messages?page=1&search=fire&unread=1')),
      ).toBe(true),
    );
    // No "New message" for a learner (no 39, 81): they only reply.
    expect(screen.queryByRole('button', { name: 'New message' })).toBeNull();

    await user.click(
      within(await screen.findByRole('list', { name: 'Received messages' })).getByRole('button'),
    );
    expect(router.state.location.search).toBe('?search=fire&unread=1&with=2');
    const thread = await screen.findByRole('list', { name: 'Messages with Morgan Manager' });
    expect(
      within(thread)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([expect.stringContaining('expires next week'), expect.stringContaining('Thanks, booked it.')]);
    expect(within(thread).getByRole('link', { name: 'https://example.test/courses/1' })).toHaveAttribute(
      'rel',
      'noopener noreferrer',
    );
    await waitFor(() =>
      expect(writes()[0]).toMatchObject({
        method: 'PATCH',
        path: '/users/7/received/messages/11',
        body: { read: true },
      }),
    );
    // Opening is not an action of the user's: no notice for it.
    expect(notices()).toEqual([]);
    await user.click(await within(thread).findByRole('button', { name: 'Mark as unread' }));
    await waitFor(() => expect(notices()).toContain('Marked as unread.'));
    expect(writes()[1]).toMatchObject({ method: 'PATCH', body: { read: false } });
    // Marked unread by the reader, it stays unread while the conversation is open.
    expect(await within(thread).findByRole('button', { name: 'Mark as read' })).toBeInTheDocument();
    expect(writes()).toHaveLength(2);

    await user.type(screen.getByLabelText('Reply to Morgan Manager'), 'See you then.');
    await user.click(screen.getByRole('button', { name: 'Send reply' }));
    await waitFor(() => expect(notices()).toContain('Reply sent to Morgan Manager.'));
    expect(writes()[2]).toMatchObject({ method: 'POST', body: { message: 'See you then.', recipient: [2] } });
    expect(screen.getByLabelText('Reply to Morgan Manager')).toHaveValue('');

    const first = within(thread).getAllByRole('listitem')[0] as HTMLElement;
    await user.click(within(first).getByRole('button', { name: /^Delete/ }));
    const confirm = await screen.findByRole('alertdialog');
    expect(writes()).toHaveLength(3);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(notices()).toContain(Messages.messageDeleted));
    expect(writes()[3]).toMatchObject({ method: 'DELETE', path: '/users/7/messages/11' });
    // Still filtered (unread only, "fire"): the empty state says so.
    expect(await screen.findByText('No messages match')).toBeInTheDocument();
  });
});

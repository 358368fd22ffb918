import { type Tag, TagsMessages, TagsPerm } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../app/auth';
import { modalStore } from '../app/modal';
import { notificationsStore } from '../app/notifications';
import { stubResizeObserver } from '../test/dom';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import TagsPage from './TagsPage';

type Call = ApiCall;
let calls: Call[] = [];
let handler: (call: Call) => Response | undefined = () => undefined;

const ENTITY = { id: 2, uuid: 'e-2', slug: 'oakfield', name: 'Oakfield House', level: 'B', parent_id: 1 };
const tag = (id: number, name: string, users_count: number): Tag => ({
  id,
  entity_id: 2,
  entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
  name,
  users_count,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});
const casey = {
  id: 41,
  uuid: 'u-41',
  name: 'Casey Lee',
  email: 'learner@demo.test',
  primary_entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
  linked_at: '2026-01-01T00:00:00.000Z',
};

function renderTags() {
  const router = createMemoryRouter([{ path: '/entities/:slug/tags', Component: TagsPage }], {
    initialEntries: ['/entities/oakfield/tags'],
  });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}
const notices = () => notificationsStore.get().map((n) => n.message);
const writes = () => calls.filter((c) => c.method !== 'GET');
const withPerms = (ids: number[]) =>
  setUser(makeUser({ permissions: ids.map((id) => ({ id, slug: `p${id}` })) }));

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
  modalStore.set({});
  stubResizeObserver();
  calls = stubApi(
    (c) =>
      handler(c) ?? (c.url.pathname === '/api/entities/oakfield' ? json(200, { data: ENTITY }) : undefined),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
});

describe('tags (/entities/{slug}/tags)', () => {
  it('lists tags with user counts, validates and creates, renames, and deletes after a confirm', async () => {
    withPerms([TagsPerm.view, TagsPerm.manage]);
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/oakfield/tags'))
        return json(200, paged([tag(5, 'Night shift', 6), tag(6, 'Agency', 0)]));
      if (c.method === 'POST' && (c.body as { name: string }).name === 'Night shift')
        return json(422, {
          message: 'The name has already been taken.',
          errors: { name: ['The name has already been taken.'] },
        });
      if (c.method === 'POST') return json(201, { data: tag(7, 'Days', 0), message: TagsMessages.created });
      if (c.method === 'PATCH')
        return json(200, { data: tag(5, 'Nights', 6), message: TagsMessages.updated });
      if (c.method === 'DELETE') return json(200, { message: TagsMessages.deleted });
      return undefined;
    };
    const user = userEvent.setup();
    renderTags();
    const table = await screen.findByRole('table', { name: 'Tags' });
    expect(await within(table).findByText('Night shift')).toBeInTheDocument();
    expect(within(table).getAllByRole('row')[1]).toHaveTextContent(/Night shift\s*6/);

    await user.click(screen.getByRole('button', { name: 'Add tag' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    expect(await within(dialog).findByText('The name field is required.')).toBeInTheDocument();
    expect(writes()).toHaveLength(0);
    await user.type(within(dialog).getByLabelText(/Name/), 'Night shift');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    // Shown above the form and beside the field.
    expect(await within(dialog).findAllByText('The name has already been taken.')).toHaveLength(2);
    const name = within(dialog).getByLabelText(/Name/);
    await user.clear(name);
    await user.type(name, 'Days');
    await user.click(within(dialog).getByRole('button', { name: 'Add tag' }));
    await waitFor(() => expect(notices()).toContain(TagsMessages.created));
    expect(writes()[1]).toMatchObject({
      method: 'POST',
      path: '/entities/oakfield/tags',
      body: { name: 'Days' },
    });

    await user.click(screen.getByRole('button', { name: 'Rename Night shift' }));
    const rename = await screen.findByRole('dialog');
    const input = within(rename).getByLabelText(/Name/);
    await user.clear(input);
    await user.type(input, 'Nights');
    await user.click(within(rename).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(writes()).toHaveLength(3));
    expect(writes()[2]).toMatchObject({ method: 'PATCH', path: '/tags/5', body: { name: 'Nights' } });

    await user.click(screen.getByRole('button', { name: 'Delete Night shift' }));
    const confirm = await screen.findByRole('alertdialog');
    expect(confirm).toHaveTextContent('6 users lose the tag');
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(writes()).toHaveLength(4));
    expect(writes()[3]).toMatchObject({ method: 'DELETE', path: '/tags/5' });
    await waitFor(() => expect(notices()).toContain(TagsMessages.deleted));
  });

  it("opens a tag's users, adds one through the picker (422 shown by the field) and removes one", async () => {
    withPerms([TagsPerm.view, TagsPerm.link]);
    let linked = [casey];
    handler = (c) => {
      if (c.method === 'GET' && c.path.startsWith('/entities/oakfield/tags'))
        return json(200, paged([tag(5, 'Night shift', linked.length)]));
      if (c.method === 'GET' && c.path.startsWith('/tags/5/users')) return json(200, paged(linked));
      if (c.method === 'GET' && c.path.startsWith('/users?'))
        return json(
          200,
          paged([
            { id: 42, uuid: 'u-42', name: 'Robin Hale', email: 'robin@x.test', primary_entity: ENTITY },
          ]),
        );
      if (c.method === 'POST' && c.path === '/tags/5/users') {
        if (calls.filter((x) => x.method === 'POST').length === 1)
          return json(422, {
            message: 'Some of the chosen users cannot be added to this tag.',
            errors: { users: ['Some of the chosen users cannot be added to this tag.'] },
          });
        linked = [...linked, { ...casey, id: 42, uuid: 'u-42', name: 'Robin Hale' }];
        return json(200, {
          data: { linked: 1, tag: tag(5, 'Night shift', 2) },
          message: TagsMessages.usersLinked,
        });
      }
      if (c.method === 'DELETE' && c.path === '/tags/5/users/41') {
        linked = linked.filter((u) => u.id !== 41);
        return json(200, { data: tag(5, 'Night shift', linked.length), message: TagsMessages.userUnlinked });
      }
      return undefined;
    };
    const user = userEvent.setup();
    renderTags();
    expect(screen.queryByRole('button', { name: 'Add tag' })).toBeNull();
    await user.click(await screen.findByRole('button', { name: 'Users of Night shift' }));
    const panel = await screen.findByRole('region', { name: 'Users tagged Night shift' });
    expect(await within(panel).findByText('Casey Lee')).toBeInTheDocument();
    expect(within(panel).getByRole('heading', { name: 'Users tagged Night shift' })).toHaveFocus();

    await user.click(within(panel).getByRole('button', { name: 'Add user' }));
    expect(await within(panel).findByText('Choose a user.')).toBeInTheDocument();
    await user.type(within(panel).getByRole('combobox', { name: /Add a user/ }), 'rob');
    await user.click(await screen.findByRole('option', { name: /Robin Hale/ }));
    expect(calls.find((c) => c.path.startsWith('/users?'))?.path).toContain('entity_id=2');
    await user.click(within(panel).getByRole('button', { name: 'Add user' }));
    expect(
      await within(panel).findByText('Some of the chosen users cannot be added to this tag.'),
    ).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Add user' }));
    await waitFor(() => expect(notices()).toContain(TagsMessages.usersLinked));
    expect(writes().at(-1)).toMatchObject({ method: 'POST', path: '/tags/5/users', body: { users: [42] } });
    expect(await within(panel).findByText('Robin Hale')).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Remove Casey Lee from Night shift' }));
    await waitFor(() => expect(notices()).toContain(TagsMessages.userUnlinked));
    await waitFor(() => expect(within(panel).queryByText('Casey Lee')).toBeNull());
  });

  it('shows an empty state that offers the first tag', async () => {
    withPerms([TagsPerm.view, TagsPerm.manage]);
    handler = (c) => (c.path.startsWith('/entities/oakfield/tags') ? json(200, paged([])) : undefined);
    renderTags();
    expect(await screen.findByText('No tags yet')).toBeInTheDocument();
    expect(screen.getAllByRole('button', { name: 'Add tag' })).toHaveLength(2);
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationsStore } from '../app/notifications';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import { LinkedItems, type LinkedRef } from './LinkedItems';
import { type PrereqOption, prereqsToPayload, prereqsToState } from './logic';
import { PrerequisitesEditor } from './PrerequisitesEditor';
import QuizFormPage from './QuizFormPage';

type Handler = (method: string, path: string, body: unknown) => Response | undefined;
let handler: Handler = () => undefined;
let calls: ApiCall[] = [];

beforeEach(() => {
  notificationsStore.set([]);
  document.cookie = 'XSRF-TOKEN=t; path=/';
  calls = stubApi((c) => handler(c.method, c.route, c.body) ?? json(404, { message: 'Not found' }));
});
afterEach(() => vi.unstubAllGlobals());

function withRouter(path: string, routes: { path: string; element: ReactNode }[]) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

function Linked({ initial }: { initial: LinkedRef[] }) {
  const [items, setItems] = useState(initial);
  return (
    <LinkedItems
      title="Lessons"
      noun="lesson"
      endpoint="/content/5/lessons"
      field="lesson_id"
      items={items}
      options={[...initial, { id: 3, title: 'Gamma' }]}
      editPath={(id) => `/l/${id}`}
      onChange={setItems}
    />
  );
}

describe('LinkedItems (add/remove/order actions)', () => {
  it('re-orders with the keyboard, removes and adds, showing the list the server answers with', async () => {
    const user = userEvent.setup();
    const answers: Record<string, LinkedRef[]> = {
      order: [
        { id: 2, title: 'Beta', position: 0 },
        { id: 1, title: 'Alpha', position: 1 },
      ],
      remove: [{ id: 2, title: 'Beta', position: 0 }],
      add: [
        { id: 2, title: 'Beta', position: 0 },
        { id: 3, title: 'Gamma', position: 1 },
      ],
    };
    handler = (method, path, body) =>
      method === 'POST' && path === '/content/5/lessons'
        ? json(200, {
            data: answers[(body as { action: string }).action],
            message: 'Lesson has been re-ordered.',
          })
        : undefined;
    withRouter('/', [
      {
        path: '/',
        element: (
          <Linked
            initial={[
              { id: 1, title: 'Alpha', position: 0 },
              { id: 2, title: 'Beta', position: 1 },
            ]}
          />
        ),
      },
    ]);
    expect(screen.getByRole('button', { name: 'Move Alpha up' })).toBeDisabled();
    screen.getByRole('button', { name: 'Move Beta up' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(calls.at(-1)?.body).toEqual({ action: 'order', ids: [2, 1] }));
    const list = screen.getByRole('list');
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('link')
          .map((a) => a.textContent),
      ).toEqual(['Beta', 'Alpha']),
    );
    await user.click(screen.getByRole('button', { name: 'Remove Alpha' }));
    await waitFor(() => expect(calls.at(-1)?.body).toEqual({ action: 'remove', lesson_id: 1 }));
    await waitFor(() => expect(within(list).getAllByRole('link')).toHaveLength(1));
    await user.selectOptions(screen.getByLabelText('Add a lesson'), 'Gamma');
    await user.click(screen.getByRole('button', { name: 'Add lesson' }));
    await waitFor(() => expect(calls.at(-1)?.body).toEqual({ action: 'add', lesson_id: 3 }));
    await screen.findByRole('link', { name: 'Gamma' });
  });
});

describe('PrerequisitesEditor', () => {
  it('turns ticked contents into a list of options, never the content itself', async () => {
    const user = userEvent.setup();
    let latest: PrereqOption[] = [];
    function Harness() {
      const [value, setValue] = useState(prereqsToState([[2]]));
      latest = value;
      return (
        <PrerequisitesEditor
          value={value}
          onChange={setValue}
          selfId={9}
          contents={[
            { id: 2, title: 'Moving and handling' },
            { id: 4, title: 'Infection control' },
            { id: 9, title: 'This content' },
          ]}
        />
      );
    }
    render(<Harness />);
    expect(screen.queryByLabelText('This content')).toBeNull();
    const first = screen.getByRole('group', { name: 'Option 1' });
    expect(within(first).getByLabelText('Moving and handling')).toBeChecked();
    await user.click(within(first).getByLabelText('Infection control'));
    await user.click(screen.getByRole('button', { name: 'Add an option' }));
    const second = screen.getByRole('group', { name: 'Or option 2' });
    await user.click(within(second).getByLabelText('Infection control'));
    expect(prereqsToPayload(latest, 9)).toEqual([[2, 4], [4]]);
    await user.click(screen.getByRole('button', { name: 'Remove option 1' }));
    expect(prereqsToPayload(latest, 9)).toEqual([[4]]);
  });
});

describe('QuizFormPage', () => {
  it('sends questions with answers, and shows the server 422 paths beside the question', async () => {
    const user = userEvent.setup();
    handler = (method, path) => {
      if (method === 'POST' && path === '/quizzes')
        return json(422, {
          message: 'The given data was invalid.',
          errors: { 'questions.0.answers': ['Each question needs at least one correct answer (server).'] },
        });
      return undefined;
    };
    withRouter('/content-creator/quizzes/create', [
      { path: '/content-creator/quizzes/create', element: <QuizFormPage /> },
    ]);
    await user.type(screen.getByLabelText(/^Title/), 'Hand hygiene');
    await user.click(screen.getByRole('button', { name: 'Add a question' }));
    await user.type(screen.getByLabelText('Question 1 text'), 'When do you wash?');
    await user.type(screen.getByLabelText('Question 1, answer 1'), 'Before care');
    await user.type(screen.getByLabelText('Question 1, answer 2'), 'Never');
    // Client check first: no correct answer yet.
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Each question needs at least one correct answer.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/quizzes')).toBe(false);
    await user.click(screen.getByLabelText('Answer 1 of question 1 is correct'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(calls.find((c) => c.path === '/quizzes')).toBeDefined());
    expect(calls.find((c) => c.path === '/quizzes')?.body).toEqual({
      title: 'Hand hygiene',
      published: false,
      is_randomized: false,
      pass_mark: 80,
      questions: [
        {
          text: 'When do you wash?',
          answers: [
            { text: 'Before care', is_correct: true },
            { text: 'Never', is_correct: false },
          ],
        },
      ],
    });
    expect(
      await screen.findByText('Each question needs at least one correct answer (server).'),
    ).toBeInTheDocument();
  });
});

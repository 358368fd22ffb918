import type { TaskView } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import { taskStarted } from './api';
import { TasksBadge } from './TasksBadge';
import TasksPage from './TasksPage';

let active = 0;
let tasks: TaskView[] = [];
let calls: ApiCall[] = [];

const task = (over: Partial<TaskView>): TaskView => ({
  uuid: '11111111-1111-4111-8111-111111111111',
  kind: 'emailed_report',
  title: 'Compliance report (PDF) by e-mail',
  status: 'running',
  progress: { done: 3, total: 10 },
  result: null,
  error: null,
  created_at: '2026-11-26T10:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
  finished_at: null,
  ...over,
});

beforeEach(() => {
  active = 0;
  tasks = [];
  calls = stubApi(({ method, route: path }) => {
    if (path === '/tasks/active-count') return json(200, { data: { active } });
    if (path === '/tasks') return json(200, paged(tasks, { perPage: 20 }));
    if (method === 'DELETE') {
      tasks = tasks.filter((t) => !path.endsWith(t.uuid));
      return json(200, { message: 'Task dismissed.' });
    }
  });
});
afterEach(() => vi.unstubAllGlobals());

function renderAt(element: React.ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([{ path: '*', element }], { initialEntries: ['/'] });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return client;
}

describe('TasksBadge', () => {
  it('names the count of running tasks, links to the page, and refreshes when the app starts a task', async () => {
    active = 0;
    const client = renderAt(<TasksBadge />);
    const link = await screen.findByRole('link', { name: 'Tasks in progress: 0' });
    expect(link.getAttribute('href')).toBe('/tasks-in-progress');
    expect(screen.queryByTestId('tasks-count')).toBeNull();
    active = 2;
    taskStarted(client);
    expect(await screen.findByRole('link', { name: 'Tasks in progress: 2' })).toBeTruthy();
    expect(screen.getByTestId('tasks-count').textContent).toBe('2');
  });
});

describe('TasksPage', () => {
  it('shows the empty state', async () => {
    renderAt(<TasksPage />);
    expect(await screen.findByText('No tasks yet')).toBeTruthy();
  });

  it('shows progress, the result or the error, and dismisses after confirmation', async () => {
    tasks = [
      task({}),
      task({
        uuid: '22222222-2222-4222-8222-222222222222',
        status: 'done',
        title: 'Compliance matrix (PDF) by e-mail',
        result: {
          file: { filename: 'matrix.pdf', content_type: 'application/pdf', size: 100 },
          download_url: '/api/tasks/22222222-2222-4222-8222-222222222222/download',
          summary: 'E-mailed to you.',
          link: null,
        },
        finished_at: '2026-11-26T10:05:00.000Z',
      }),
      task({
        uuid: '33333333-3333-4333-8333-333333333333',
        status: 'failed',
        error: 'The report has no rows.',
      }),
    ];
    renderAt(<TasksPage />);
    const bar = await screen.findByRole('progressbar', {
      name: 'Progress of Compliance report (PDF) by e-mail',
    });
    expect(bar.getAttribute('aria-valuenow')).toBe('30');
    expect(screen.getByText('3 of 10')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Download matrix.pdf' })).toBeTruthy();
    expect(screen.getByText('E-mailed to you.')).toBeTruthy();
    expect(screen.getByText('The report has no rows.')).toBeTruthy();
    expect(screen.getByText('Failed')).toBeTruthy();
    const user = userEvent.setup();
    await user.click(screen.getAllByRole('button', { name: 'Dismiss' })[0] as HTMLElement);
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog.textContent).toContain('will be removed from this list, with its file');
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(screen.queryByText('Compliance matrix (PDF) by e-mail')).toBeNull());
  });
});

import type { LearnerEvent, LearnerEvents } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsStore, setUser } from '../app/auth';
import { makeUser } from '../test/factories';
import { json, stubApi } from '../test/fake-api';
import { coursesLeftToTodo, LearnerTodo, stateWords } from './LearnerTodo';

/** Issue 13: the carer's to-do in words, in the server's order, grouped as the counts are. */

let nextId = 1;
const event = (title: string, e: Partial<LearnerEvent>): LearnerEvent => ({
  course: { id: nextId++, title },
  kind: 'mandatory',
  state: 'due',
  status: 'missing',
  course_status:
    e.state === 'done' ? (e.status ?? 'in_date') : e.state === undefined ? 'due' : (e.status ?? null),
  due_date: null,
  days_left: null,
  attempt_id: null,
  content_id: 100 + nextId,
  content_type: 'elearning',
  latest_result: null,
  ...e,
});
const passed = {
  result_id: 1,
  type: 'elearning',
  passed: true,
  completed_at: '2025-10-01T09:00:00.000Z',
  expires_at: '2026-10-01T09:00:00.000Z',
};

const body: LearnerEvents = {
  counts: { overdue: 1, current: 3, completed: 1 },
  data: [
    event('Fire safety', {
      state: 'overdue',
      status: 'expired',
      due_date: '2026-10-01T09:00:00.000Z',
      days_left: -12,
      latest_result: passed,
    }),
    event('Food hygiene', {
      kind: 'required',
      state: 'expiring',
      status: 'expiring',
      due_date: '2026-12-07T09:00:00.000Z',
      days_left: 12,
      latest_result: passed,
    }),
    // A new starter's course never done, due by the end of their new-starter period (issue 28 item 5).
    event('Safeguarding', { due_date: '2026-12-20T09:00:00.000Z', days_left: 25 }),
    event('Data protection', { kind: 'optional', state: 'in_progress', status: null, attempt_id: 77 }),
    event('Health and safety', {
      state: 'done',
      status: 'in_date',
      due_date: '2027-05-01T09:00:00.000Z',
      days_left: 150,
      latest_result: { ...passed, completed_at: '2026-05-01T09:00:00.000Z' },
    }),
  ],
};

beforeEach(() => {
  permissionsStore.set(null);
  setUser(makeUser());
  stubApi(({ url }) =>
    url.pathname.endsWith('/users/u-1/events')
      ? json(200, { data: body })
      : new Response(null, { status: 404 }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('the learner’s to-do', () => {
  it('shows the counts as links, then overdue, to do and completed in words with dates and one action each', async () => {
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <LearnerTodo userRef="u-1" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const overdue = await screen.findByRole('region', { name: 'Overdue (1)' });
    const fire = within(overdue).getByRole('listitem');
    expect(fire).toHaveTextContent('Fire safety');
    expect(within(fire).getByText('Overdue')).toBeInTheDocument();
    expect(within(fire).getByText('Mandatory')).toBeInTheDocument();
    expect(fire).toHaveTextContent('Expired on 01/10/2026 (12 days ago)');
    expect(within(fire).getByRole('button', { name: 'Retake Fire safety' })).toBeInTheDocument();

    const todo = screen.getByRole('region', { name: 'To do (3)' });
    const rows = within(todo).getAllByRole('listitem');
    expect(rows.map((r) => within(r).getByText(/^[A-Z][a-z ]+$/, { selector: 'p' }).textContent)).toEqual([
      'Food hygiene',
      'Safeguarding',
      'Data protection',
    ]);
    expect(within(rows[0]).getByText('Expires in 12 days')).toBeInTheDocument();
    expect(within(rows[0]).getByText('Required')).toBeInTheDocument();
    expect(rows[0]).toHaveTextContent('Valid until 07/12/2026');
    expect(within(rows[1]).getByText('Due')).toBeInTheDocument();
    expect(rows[1]).toHaveTextContent('Due by 20/12/2026. Do it before then to stay in date.');
    expect(within(rows[1]).getByRole('button', { name: 'Start Safeguarding' })).toBeInTheDocument();
    expect(within(rows[2]).getByText('Optional')).toBeInTheDocument();
    // Resume opens the attempt in its course (issue 28 item 4), with the course's other items beside it.
    expect(within(rows[2]).getByRole('link', { name: 'Resume Data protection' })).toHaveAttribute(
      'href',
      '/cattempt/77',
    );

    const completed = screen.getByTestId('completed-courses');
    expect(completed).toHaveTextContent('Completed 01/05/2026. Valid until 01/05/2027.');
    expect(
      within(completed).getByRole('button', { name: 'Download certificate for Health and safety' }),
    ).toBeInTheDocument();

    const counts = screen.getByTestId('event-counts');
    expect(within(counts).getByRole('link', { name: '1 Overdue' })).toHaveAttribute('href', '#todo-overdue');
    expect(within(counts).getByRole('link', { name: '3 To do' })).toHaveAttribute('href', '#todo-current');
    expect(within(counts).getByRole('link', { name: '1 Completed' })).toHaveAttribute(
      'href',
      '#todo-completed',
    );
  });

  it('words a document read, and a document asked again after a new version', () => {
    const read = {
      ...event('Policy', { state: 'done', status: 'in_date', latest_result: passed }),
      document_id: 5,
    };
    expect(stateWords(read)).toMatchObject({
      badge: 'Acknowledged',
      line: 'Read and acknowledged on 01/10/2025.',
    });
    const again = { ...read, state: 'overdue' as const, status: 'expired' as const };
    expect(stateWords(again)).toMatchObject({
      badge: 'To read',
      line: 'A new version was published: read it again and acknowledge it.',
    });
  });

  it('says when a mandatory course expires today and when an exemption has no end', () => {
    expect(
      stateWords(event('A', { state: 'expiring', days_left: 0, due_date: passed.expires_at })).badge,
    ).toBe('Expires today');
    expect(
      stateWords(event('A', { state: 'expiring', days_left: 1, due_date: passed.expires_at })).badge,
    ).toBe('Expires in 1 day');
    expect(stateWords(event('A', { state: 'done', status: 'exempt' })).line).toBe(
      'You are exempt from this course.',
    );
  });
});

describe('a required document in the to-do (issue 17)', () => {
  it('links "Read" to the document page instead of starting a course', async () => {
    const policy = event('Safeguarding policy', { content_id: null });
    const withDocument = {
      counts: { overdue: 0, current: 1, completed: 0 },
      data: [{ ...policy, document_id: 5 }],
    };
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(JSON.stringify({ data: withDocument }), {
            status: 200,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <LearnerTodo userRef="u-1" />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const todo = await screen.findByRole('region', { name: 'To do (1)' });
    expect(within(todo).getByRole('link', { name: 'Read Safeguarding policy' })).toHaveAttribute(
      'href',
      '/document/5',
    );
    expect(within(todo).queryByText(/Not available online/)).not.toBeInTheDocument();
    expect(within(todo).getByText('To read')).toBeInTheDocument();
    expect(todo).toHaveTextContent('Read it and confirm you have understood it.');
  });
});

describe('the other courses beside the to-do (issue 28 item 4)', () => {
  it('keeps a course with an open attempt listed, all its items, until it is done; leaves the others to the to-do', () => {
    const left = coursesLeftToTodo(body.data);
    const id = (title: string) => body.data.find((e) => e.course.title === title)?.course.id;
    expect(left.has(id('Data protection') as number)).toBe(false); // under way: still listed with every item
    for (const title of ['Fire safety', 'Food hygiene', 'Safeguarding', 'Health and safety'])
      expect(left.has(id(title) as number)).toBe(true);
  });
});

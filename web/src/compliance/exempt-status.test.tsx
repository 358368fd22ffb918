import type { UserComplianceCourse } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsStore, setUser } from '../app/auth';
import { LatestResultLine } from '../learning/LearnerCourses';
import { makeUser } from '../test/factories';
import { json, paged, stubApi } from '../test/fake-api';
import { UserComplianceCourses } from './UserComplianceCourses';

/** issue 10 §4: exempt is its own status on the manager's user page and on the learner's courses. */

const row = (title: string, r: Partial<UserComplianceCourse>): UserComplianceCourse => ({
  course_status: r.status ?? 'in_date',
  status_date: r.status === 'exempt' ? null : '2027-02-22T10:00:00.000Z',
  out_of_date: false,
  course: { id: title.length, title },
  type: 'primary',
  validity: 12,
  inherited: false,
  rule_id: title.length,
  status: 'in_date',
  exempt: false,
  exemption: null,
  latest_result: {
    result_id: title.length,
    type: 'elearning',
    passed: true,
    completed_at: '2026-02-22T10:00:00.000Z',
    expires_at: '2027-02-22T10:00:00.000Z',
    result_count: 1,
  },
  ...r,
});

beforeEach(() => {
  permissionsStore.set(null);
  setUser(makeUser({ permissions: [24].map((id) => ({ id, slug: `p${id}` })) }));
  const rows = [
    row('Fire safety', {
      status: 'exempt',
      exempt: true,
      exemption: { reason: 'Registered nurse', end_date: null },
      latest_result: {
        result_id: 1,
        type: 'exempt',
        passed: true,
        completed_at: '2026-02-22T10:00:00.000Z',
        expires_at: null,
        result_count: 1,
      },
    }),
    row('Food hygiene', {}),
  ];
  stubApi(({ url }) =>
    url.pathname.endsWith('/compliance-courses')
      ? json(200, paged(rows, { perPage: 25 }))
      : new Response(null, { status: 404 }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('user compliance courses', () => {
  it('shows an exemption as Exempt (never ending), not In date', async () => {
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <UserComplianceCourses userRef="u-9" name="Ann" />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    const fire = (await screen.findByText('Fire safety')).closest('tr') as HTMLElement;
    expect(within(fire).getByText('Exempt')).toBeInTheDocument();
    expect(within(fire).queryByText('In date')).toBeNull();
    expect(within(fire).getByText('Never')).toBeInTheDocument();
    expect(within(fire).getByText('No end date · Reason: Registered nurse')).toBeInTheDocument();
    const food = screen.getByText('Food hygiene').closest('tr') as HTMLElement;
    expect(within(food).getByText('In date')).toBeInTheDocument();
  });
});

describe('the one-click exemption (issue 28 item 6)', () => {
  it('asks for a reason (required) and an optional end date, and sends them', async () => {
    setUser(makeUser({ permissions: [24, 43].map((id) => ({ id, slug: `p${id}` })) }));
    const calls: { method: string; url: string; body: unknown }[] = [];
    const list = vi.mocked(fetch).getMockImplementation();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string, init?: RequestInit) => {
        calls.push({ method: init?.method ?? 'GET', url: input, body: init?.body });
        if (init?.method === 'PATCH')
          return new Response(
            JSON.stringify({ message: 'The user is now exempt from this course.', data: {} }),
            {
              status: 200,
              headers: { 'content-type': 'application/json' },
            },
          );
        return (list as (i: string) => Promise<Response>)(input);
      }),
    );
    const user = userEvent.setup();
    render(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
          <UserComplianceCourses userRef="u-9" name="Ann" />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    await user.click(await screen.findByRole('button', { name: 'Exempt from Food hygiene' }));
    const dialog = await screen.findByRole('alertdialog');
    await user.click(within(dialog).getByRole('button', { name: 'Exempt' }));
    // No reason: the dialog stays open with the message, and nothing is sent.
    expect(await within(dialog).findByText('Give the reason for the exemption.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    await user.type(within(dialog).getByLabelText(/Reason/), 'Agency nurse');
    await user.type(within(dialog).getByLabelText(/End date/), '2099-01-31');
    await user.click(within(dialog).getByRole('button', { name: 'Exempt' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(1));
    const patch = calls.find((c) => c.method === 'PATCH');
    expect(patch?.url).toContain('/users/u-9/compliance-courses/12');
    expect(JSON.parse(String(patch?.body))).toEqual({
      exempt: true,
      notes: 'Agency nurse',
      end_date: '2099-01-31',
    });
  });
});

describe('the learner’s completed courses', () => {
  it('an exemption says Exempt since its start, not Completed', () => {
    render(
      <LatestResultLine
        result={{
          result_id: 1,
          type: 'exempt',
          passed: true,
          completed_at: '2026-02-22T10:00:00.000Z',
          expires_at: '2027-02-22T10:00:00.000Z',
        }}
      />,
    );
    expect(screen.getByText('Exempt')).toBeInTheDocument();
    expect(screen.getByText('Since 22/02/2026 · until 22/02/2027')).toBeInTheDocument();
    expect(screen.queryByText(/Completed/)).toBeNull();
  });
});

import type { UserComplianceCourse } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsStore, setUser } from '../app/auth';
import { LatestResultLine } from '../learning/LearnerCourses';
import { makeUser } from '../test/factories';
import { UserComplianceCourses } from './UserComplianceCourses';

/** issue 10 §4: exempt is its own status on the manager's user page and on the learner's courses. */

const row = (title: string, r: Partial<UserComplianceCourse>): UserComplianceCourse => ({
  course: { id: title.length, title },
  type: 'primary',
  validity: 12,
  inherited: false,
  rule_id: title.length,
  status: 'in_date',
  exempt: false,
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
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.pathname.endsWith('/compliance-courses'))
        return new Response(
          JSON.stringify({
            data: rows,
            meta: { current_page: 1, last_page: 1, per_page: 25, total: rows.length, from: 1, to: 2 },
            links: {},
          }),
          { status: 200, headers: { 'content-type': 'application/json' } },
        );
      return new Response(null, { status: 404 });
    }),
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
    const food = screen.getByText('Food hygiene').closest('tr') as HTMLElement;
    expect(within(food).getByText('In date')).toBeInTheDocument();
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

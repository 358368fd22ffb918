import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { json, paged, stubApi } from '../test/fake-api';
import { TrainingCompanyRequestsCard, TrainingCompanyStatusNotice } from './training-company';

/** Issue 29 §7: a super admin answers training company requests; the organisation reads where its request stands. */

const REQUEST = {
  id: 7,
  slug: 'northgate-skills',
  name: 'Northgate Skills',
  level: 'A',
  parent: null,
  website: null,
  status: 'pending',
  requested_at: '2026-11-27T10:00:00.000Z',
  decided_at: null,
  decided_by: null,
};
const calls: { method: string; path: string }[] = [];
let pending = [REQUEST];
beforeEach(() => {
  calls.length = 0;
  pending = [REQUEST];
  stubApi(({ method, url }) => {
    calls.push({ method, path: url.pathname });
    if (url.pathname === '/api/training-company-requests') return json(200, paged(pending, { perPage: 5 }));
    if (url.pathname === `/api/entities/${REQUEST.slug}/training-company/approve`) {
      pending = [];
      return json(200, { data: { ...REQUEST, status: 'approved' }, message: 'Training company approved.' });
    }
  });
});
afterEach(() => vi.unstubAllGlobals());

const wrap = (ui: React.ReactNode) =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );

describe('training company requests', () => {
  it('lists the waiting request and approves it after a confirmation', async () => {
    wrap(<TrainingCompanyRequestsCard />);
    expect(await screen.findByRole('link', { name: 'Northgate Skills' })).toBeTruthy();
    expect(screen.getByText(/Asked 27\/11\/2026/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Approve Northgate Skills' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText('Approve Northgate Skills?')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({
        method: 'POST',
        path: `/api/entities/${REQUEST.slug}/training-company/approve`,
      }),
    );
    // Nothing left waiting: the card steps aside.
    await vi.waitFor(() => expect(screen.queryByText('Training companies awaiting approval')).toBeNull());
  });

  it('tells the organisation its request awaits approval, or that it was refused with Ask again', () => {
    const entity = {
      slug: 'northgate-skills',
      name: 'Northgate Skills',
      training_company_status: 'pending',
    } as const;
    const { rerender } = wrap(<TrainingCompanyStatusNotice entity={entity as never} />);
    expect(screen.getByText('Awaiting approval')).toBeTruthy();
    rerender(
      <QueryClientProvider client={new QueryClient()}>
        <TrainingCompanyStatusNotice entity={{ ...entity, training_company_status: 'refused' } as never} />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Not approved as a training company')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Ask again' })).toBeTruthy();
  });
});

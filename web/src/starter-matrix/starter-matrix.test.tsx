import type { StarterMatrixPreview } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { authStore, permissionsStore } from '../app/auth';
import { makeUser } from '../test/factories';
import { json, stubApi } from '../test/fake-api';
import { refreshLabel } from './api';
import { StarterMatrixOffer } from './StarterMatrixOffer';
import StarterMatrixPage from './StarterMatrixPage';

/** Issue 37 §2: the starter training matrix previewed (what is added, what is kept), applied after a confirmation. */

const course = (
  key: string,
  title: string,
  months: number | null,
  existing: { id: number; title: string } | null,
) => ({
  key,
  title,
  action: existing ? ('keep' as const) : ('create' as const),
  existing,
  refresh_months: months,
  refresh_basis: months === null ? 'No period: your organisation decides.' : 'Skills for Care: yearly.',
  care_certificate_standard: null,
});

const BEFORE: StarterMatrixPreview = {
  entity: { id: 5, slug: 'acme-care', name: 'Acme Care' },
  courses: [
    course('fire-safety', 'Fire safety', 12, null),
    course('infection-prevention-and-control', 'Infection prevention and control', 36, {
      id: 40,
      title: 'Infection Control',
    }),
    course('dementia-awareness', 'Dementia awareness', null, null),
  ],
  roles: [
    { key: 'care-worker', name: 'Care worker', action: 'keep', existing: { id: 7, name: 'Care Assistant' } },
    { key: 'nurse', name: 'Nurse', action: 'create', existing: null },
  ],
  rules: [
    {
      role_key: 'care-worker',
      course_key: 'fire-safety',
      type: 'primary',
      refresh_months: 12,
      action: 'create',
      existing: null,
    },
    {
      role_key: 'care-worker',
      course_key: 'infection-prevention-and-control',
      type: 'primary',
      refresh_months: 36,
      action: 'keep',
      existing: { id: 90, type: 'secondary', refresh_months: 6 },
    },
    {
      role_key: 'care-worker',
      course_key: 'dementia-awareness',
      type: 'secondary',
      refresh_months: null,
      action: 'create',
      existing: null,
    },
    {
      role_key: 'nurse',
      course_key: 'fire-safety',
      type: 'primary',
      refresh_months: 12,
      action: 'create',
      existing: null,
    },
  ],
  to_create: { courses: 2, roles: 1, rules: 3 },
  fresh: false,
};
const AFTER: StarterMatrixPreview = {
  ...BEFORE,
  courses: BEFORE.courses.map((c, i) => ({
    ...c,
    action: 'keep',
    existing: c.existing ?? { id: 100 + i, title: c.title },
  })),
  roles: BEFORE.roles.map((r, i) => ({
    ...r,
    action: 'keep',
    existing: r.existing ?? { id: 200 + i, name: r.name },
  })),
  rules: BEFORE.rules.map((r, i) => ({
    ...r,
    action: 'keep',
    existing: r.existing ?? { id: 300 + i, type: r.type, refresh_months: r.refresh_months },
  })),
  to_create: { courses: 0, roles: 0, rules: 0 },
};

const calls: { method: string; path: string }[] = [];
let current: StarterMatrixPreview;
beforeEach(() => {
  calls.length = 0;
  current = BEFORE;
  authStore.set({ user: makeUser(), message: null, loading: false, error: null, token: null });
  permissionsStore.set([63, 27, 33, 68]);
  sessionStorage.clear();
  stubApi(({ method, url }) => {
    calls.push({ method, path: url.pathname });
    if (url.pathname === '/api/entities/acme-care/starter-matrix') {
      if (method === 'POST') {
        current = AFTER;
        return json(201, {
          data: { ...AFTER, created: { courses: 2, roles: 1, rules: 3 } },
          message: 'Starter training matrix applied: 2 courses, 1 job role and 3 course rules added.',
        });
      }
      return json(200, { data: current });
    }
  });
});
afterEach(() => vi.unstubAllGlobals());

const wrap = (ui: React.ReactNode, path = '/entities/acme-care/starter-matrix') =>
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter initialEntries={[path]}>
        <Routes>
          <Route path="/entities/:slug/starter-matrix" element={ui} />
          <Route path="/" element={ui} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );

describe('the starter training matrix page', () => {
  it('previews what is added and what is kept, then applies after a confirmation', async () => {
    wrap(<StarterMatrixPage />);
    const summary = await screen.findByTestId('starter-summary');
    expect(summary.textContent).toContain(
      'Applying adds 2 courses, 1 job role and 3 course rules to Acme Care.',
    );
    expect(summary.textContent).toContain('Kept as they are: 1 course, 1 job role and 1 course rule');
    // The organisation's own role and course are named, kept.
    expect(screen.getByText('Care Assistant', { selector: 'strong' })).toBeTruthy();
    const table = screen.getByRole('table');
    const header = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(header).toEqual(['Course', 'Refresh', 'Care Assistant', 'Nurse']);
    const ipc = within(table).getByRole('row', { name: /Infection Control/ });
    expect(within(ipc).getByText('Yours, kept')).toBeTruthy();
    // Its own rule stays: Required, every 6 months, not the starter's Mandatory every 3 years.
    expect(within(ipc).getByText('Required')).toBeTruthy();
    expect(within(ipc).getByText('Yours, kept: every 6 months')).toBeTruthy();
    const dementia = within(table).getByRole('row', { name: /Dementia awareness/ });
    expect(within(dementia).getByText('Not set')).toBeTruthy();
    expect(within(dementia).getByText('No period: your organisation decides.')).toBeTruthy();
    const fire = within(table).getByRole('row', { name: /Fire safety/ });
    expect(within(fire).getAllByText('Mandatory')).toHaveLength(2);

    await userEvent.click(screen.getByRole('button', { name: 'Apply' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(
      within(dialog).getByText(/adds 2 courses, 1 job role and 3 course rules to Acme Care/),
    ).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Apply' }));
    await vi.waitFor(() =>
      expect(calls).toContainEqual({ method: 'POST', path: '/api/entities/acme-care/starter-matrix' }),
    );
    await vi.waitFor(() =>
      expect(screen.getByTestId('starter-summary').textContent).toContain(
        'Acme Care already has everything in the starter training matrix.',
      ),
    );
    expect((screen.getByRole('button', { name: 'Apply' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('labels refresh periods in words', () => {
    expect([12, 36, 6, null].map(refreshLabel)).toEqual([
      'Every year',
      'Every 3 years',
      'Every 6 months',
      'Not set',
    ]);
  });
});

describe('the first-run offer', () => {
  it('shows for a new organisation with no course rules, and hides for the tab after "Not now"', async () => {
    current = { ...BEFORE, fresh: true };
    wrap(<StarterMatrixOffer slug="acme-care" name="Acme Care" />, '/');
    const offer = await screen.findByTestId('starter-matrix-offer');
    expect(within(offer).getByRole('link', { name: 'Preview the starter matrix' }).getAttribute('href')).toBe(
      '/entities/acme-care/starter-matrix',
    );
    await userEvent.click(within(offer).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByTestId('starter-matrix-offer')).toBeNull();
    expect(sessionStorage.getItem('cc_starter_matrix_not_now:acme-care')).toBe('1');
  });

  it('stays away once the organisation has course rules, and asks nothing without the permissions', async () => {
    wrap(<StarterMatrixOffer slug="acme-care" name="Acme Care" />, '/');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls).toHaveLength(1);
    expect(screen.queryByTestId('starter-matrix-offer')).toBeNull();
    calls.length = 0;
    act(() => permissionsStore.set([68]));
    current = { ...BEFORE, fresh: true };
    wrap(<StarterMatrixOffer slug="acme-care" name="Acme Care" />, '/');
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(calls).toEqual([]);
  });
});

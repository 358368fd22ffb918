import type { ResultView } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { permissionsStore, setUser } from '../app/auth';
import { makeUser } from '../test/factories';
import { json, paged, stubApi } from '../test/fake-api';
import { TrainingHistory } from './TrainingHistory';

/** Issue 13: the carer's training history with evidence and certificates, and "Add training record" for everyone. */

const result = (id: number, r: Partial<ResultView>): ResultView => ({
  id,
  uuid: `r-${id}`,
  type: 'elearning',
  status: 'approved',
  passed: true,
  score: 90,
  completed_at: '2026-05-01T09:00:00.000Z',
  expires_at: '2099-05-01T09:00:00.000Z',
  notes: null,
  certificate_suppressed: false,
  admin_only: false,
  user: { id: 7, uuid: 'u-7', name: 'Sam Carer' },
  course: { id: 1, title: 'Fire safety' },
  content: null,
  entity: { id: 2, name: 'Oakfield House', slug: 'oakfield' } as ResultView['entity'],
  evidence: null,
  created_by: null,
  approved_by: null,
  approved_at: null,
  bulk_operation_id: null,
  created_at: '2026-05-01T09:00:00.000Z',
  updated_at: '2026-05-01T09:00:00.000Z',
  ...r,
});

const rows = [
  result(3, { type: 'historical', status: 'pending', completed_at: '2026-09-01T09:00:00.000Z' }),
  result(2, {
    type: 'historical',
    evidence: { id: 5, name: 'fire-cert.pdf', mime_type: 'application/pdf', size_bytes: 2048, url: '/x' },
  }),
  result(1, {
    type: 'face2face',
    completed_at: '2024-01-10T09:00:00.000Z',
    expires_at: '2025-01-10T09:00:00.000Z',
  }),
];

function renderHistory() {
  return render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <MemoryRouter>
        <TrainingHistory userRef="u-7" />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  permissionsStore.set(null);
  stubApi(({ url }) =>
    url.pathname.endsWith('/users/u-7/results')
      ? json(200, paged(rows, { perPage: 10 }))
      : new Response(null, { status: 404 }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('training history', () => {
  it('lists every result with its dates, kind, evidence, and the certificate on the newest approved pass', async () => {
    setUser(makeUser());
    renderHistory();
    const items = await screen.findAllByTestId('history-row');
    expect(items).toHaveLength(3);
    expect(within(items[0]).getByText('Awaiting approval')).toBeInTheDocument();
    expect(within(items[0]).queryByRole('button')).toBeNull();
    expect(items[1]).toHaveTextContent('Completed 01/05/2026 · valid until 01/05/2099');
    expect(within(items[1]).getByRole('link', { name: 'fire-cert.pdf' })).toHaveAttribute(
      'href',
      expect.stringMatching(/\/results\/2\/evidence$/),
    );
    expect(
      within(items[1]).getByRole('button', { name: 'Download certificate for Fire safety' }),
    ).toBeInTheDocument();
    expect(items[2]).toHaveTextContent('Face-to-face');
    expect(items[2]).toHaveTextContent('Completed 10/01/2024 · expired 10/01/2025');
    expect(within(items[2]).queryByRole('button')).toBeNull();
    // Without add record (26) the carer records their own past training (self mode of the form).
    expect(screen.getByRole('link', { name: 'Add training record' })).toHaveAttribute(
      'href',
      '/results/historical/create?self=1',
    );
  });

  it('offers "Add training record" to who holds add record (26)', async () => {
    setUser(makeUser({ permissions: [{ id: 26, slug: 'add-record' }] }));
    renderHistory();
    expect(await screen.findByRole('link', { name: 'Add training record' })).toHaveAttribute(
      'href',
      '/results/historical/create',
    );
  });
});

describe('an acknowledged document in the history (issue 17)', () => {
  it('has no training certificate to download', async () => {
    rows.push(
      result(4, {
        type: 'document',
        course: { id: 9, title: 'Safeguarding policy' },
        completed_at: '2026-10-01T09:00:00.000Z',
        expires_at: null,
      }),
    );
    try {
      renderHistory();
      await screen.findByText('Safeguarding policy');
      expect(
        screen.queryByRole('button', { name: 'Download certificate for Safeguarding policy' }),
      ).not.toBeInTheDocument();
      // Training still offers its certificate.
      expect(
        screen.getByRole('button', { name: 'Download certificate for Fire safety' }),
      ).toBeInTheDocument();
    } finally {
      rows.pop();
    }
  });
});

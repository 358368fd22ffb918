import type { BehindPerson, BehindSummary, ManagerDashboard } from '@cc/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { permissionsStore, setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { renderRoutes } from '../test/render-routes';

/** Issue 33 §7: who is behind at a home — the page, its actions and empty states, and the dashboard's card. */
type Handler = (url: URL, init: RequestInit | undefined) => Response | undefined;
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let handler: Handler = () => undefined;
const calls: { url: URL; method: string; body: unknown }[] = [];

const renderAt = (path: string) => renderRoutes(routes, path);

const summary = (o: Partial<BehindSummary> = {}): BehindSummary => ({
  entity: { id: 2, slug: 'oakfield', name: 'Oakfield House', level: 'B' },
  people: 2,
  counts: { care_certificate: 1, pathway: 1, document: 1 },
  generated_at: '2026-11-25T12:00:00.000Z',
  ...o,
});
const ann: BehindPerson = {
  id: 11,
  uuid: 'uuid-11',
  name: 'Ann Abbot',
  role: 'Carer',
  entity: { id: 2, name: 'Oakfield House' },
  items: [
    {
      kind: 'care_certificate',
      title: 'Care Certificate 2025',
      due: '2026-10-20',
      detail: '3 of 16 standards approved',
      href: '/care-certificate/cert-1',
    },
    {
      kind: 'document',
      title: 'Safeguarding policy',
      due: '2026-11-01',
      detail: 'Never read',
      href: '/document/7',
    },
  ],
};
const cat: BehindPerson = {
  id: 12,
  uuid: 'uuid-12',
  name: 'Cat Cole',
  role: null,
  entity: { id: 3, name: 'Ash Annexe' },
  items: [
    {
      kind: 'pathway',
      title: 'Induction',
      due: '2026-11-20',
      detail: 'Step ‘Moving and handling’ overdue (0 of 2 done)',
      href: '/pathways/4',
    },
  ],
};
const page = (rows: BehindPerson[]) => ({
  data: rows,
  meta: { current_page: 1, last_page: 1, per_page: 25, total: rows.length, from: 1, to: rows.length },
  links: {},
});

beforeEach(() => {
  permissionsStore.set(null);
  actingAsStore.set(null);
  notificationsStore.set([]);
  calls.length = 0;
  handler = () => undefined;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const url = new URL(input, 'http://localhost');
      calls.push({
        url,
        method: init?.method ?? 'GET',
        body: init?.body ? JSON.parse(String(init.body)) : null,
      });
      if (url.pathname === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      if (url.pathname === '/api/entities') return json(200, { data: [], meta: {}, links: {} });
      return handler(url, init) ?? json(404, { message: 'Not found.' });
    }),
  );
  // 105 manager dashboard, 39 message people from the dashboard.
  setUser(makeUser({ permissions: [105, 39].map((id) => ({ id, slug: `p${id}` })) }));
});
afterEach(() => vi.unstubAllGlobals());

describe('/manager-dashboard/behind', () => {
  it('lists who is behind with what, each a link, and reminds them in one click', async () => {
    handler = (url, init) => {
      if (url.pathname === '/api/dashboards/manager/behind') return json(200, { data: summary() });
      if (url.pathname === '/api/dashboards/manager/behind/people') {
        const kind = url.searchParams.get('kind');
        return json(200, page(kind === 'pathway' ? [cat] : [ann, cat]));
      }
      if (url.pathname === '/api/dashboards/manager/behind/remind' && init?.method === 'POST')
        return json(200, { data: { reminded: 2 }, message: 'Reminded 2 people.' });
      return undefined;
    };
    renderAt('/manager-dashboard/behind?entity=2');
    const list = await screen.findByTestId('behind-list', {}, { timeout: 10_000 });
    expect(screen.getByTestId('behind-entity')).toHaveTextContent('Oakfield House');
    expect(within(list).getByRole('link', { name: 'Ann Abbot' })).toHaveAttribute('href', '/users/uuid-11');
    expect(within(list).getByRole('link', { name: 'Care Certificate 2025' })).toHaveAttribute(
      'href',
      '/care-certificate/cert-1',
    );
    expect(within(list).getByText('3 of 16 standards approved')).toBeTruthy();
    expect(within(list).getByText(/expected by 20\/10\/2026/)).toBeTruthy();
    expect(within(list).getByText('Never read')).toBeTruthy();
    // A person of another home under this one says which.
    expect(within(list).getByText('Ash Annexe')).toBeTruthy();
    expect(screen.getByText('2 people behind')).toBeTruthy();
    // The filters carry their counts.
    expect(screen.getByRole('button', { name: 'Everything (2)', pressed: true })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Message these people' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Remind these people' }));
    const remind = calls.find((c) => c.url.pathname === '/api/dashboards/manager/behind/remind');
    expect(remind?.method).toBe('POST');
    expect(remind?.body).toEqual({ entity: '2', kind: 'all' });
    expect(notificationsStore.get().map((n) => n.message)).toContain('Reminded 2 people.');

    // One kind: the list and the reminder follow it.
    await userEvent.click(screen.getByRole('button', { name: 'Pathways (1)' }));
    expect(await screen.findByText('1 person behind')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Ann Abbot' })).toBeNull();
    expect(screen.getByText(/Behind means: a step of a pathway/)).toBeTruthy();
  });

  it('says no one is behind, and leaves out the kinds the manager may not see', async () => {
    handler = (url) => {
      if (url.pathname === '/api/dashboards/manager/behind')
        return json(200, {
          data: summary({ people: 0, counts: { care_certificate: null, pathway: null, document: 0 } }),
        });
      if (url.pathname === '/api/dashboards/manager/behind/people') return json(200, page([]));
      return undefined;
    };
    renderAt('/manager-dashboard/behind?entity=2');
    expect(await screen.findByText('No one is behind', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Care Certificate/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Documents to read (0)' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Remind these people' })).toBeNull();
  });

  it('the manager dashboard has a card with the counts, each a link to its list', async () => {
    const dashboard: ManagerDashboard = {
      entity: { id: 2, slug: 'oakfield', name: 'Oakfield House', level: 'B' },
      compliance_type: 'all',
      figures: {
        users: 1,
        required: 1,
        in_date: 1,
        expiring: 0,
        expired: 0,
        missing: 0,
        exempt: 0,
        score: 100,
      },
      trend: { previous: null, change: null, months: [] },
      out_of_date: { people: 0, cells: 0, rows: [] },
      expiring: {
        '30': { people: 0, cells: 0, rows: [] },
        '60': { people: 0, cells: 0, rows: [] },
        '90': { people: 0, cells: 0, rows: [] },
      },
      pending: null,
      new_starters: { people: 0, cells: 0, rows: [] },
      generated_at: '2026-11-25T12:00:00.000Z',
    };
    handler = (url) => {
      if (url.pathname === '/api/dashboards/manager') return json(200, { data: dashboard });
      if (url.pathname === '/api/dashboards/manager/behind') return json(200, { data: summary() });
      return undefined;
    };
    renderAt('/manager-dashboard');
    const card = await screen.findByTestId('dashboard-behind', {}, { timeout: 10_000 });
    expect(await within(card).findByRole('link', { name: /Pathways\s*1 person/ })).toHaveAttribute(
      'href',
      '/manager-dashboard/behind?entity=2&kind=pathway',
    );
    expect(within(card).getByRole('link', { name: 'See who is behind' })).toHaveAttribute(
      'href',
      '/manager-dashboard/behind?entity=2',
    );
  });
});

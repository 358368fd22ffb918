import type {
  ComplianceFigures,
  DashboardPerson,
  ManagementDashboard,
  ManagerDashboard,
} from '@cc/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { permissionsStore, setUser } from '../app/auth';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { json, stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-routes';

type Handler = (url: URL) => Response | undefined;
let handler: Handler = () => undefined;
const calls: URL[] = [];

const renderAt = (path: string) => renderRoutes(routes, path);

const figures = (f: Partial<ComplianceFigures> = {}): ComplianceFigures => ({
  users: 3,
  required: 6,
  in_date: 3,
  expiring: 1,
  expired: 1,
  missing: 1,
  exempt: 0,
  score: 66,
  ...f,
});
const person = (id: number, name: string, status: 'expired' | 'missing' | 'expiring'): DashboardPerson => ({
  id,
  uuid: `uuid-${id}`,
  name,
  role: 'Carer',
  entity: { id: 2, name: 'Oakfield House' },
  courses: [
    {
      id: 9,
      title: 'Fire safety',
      type: 'primary',
      status,
      course_status: status,
      status_date: status === 'missing' ? null : '2026-10-12T00:00:00.000Z',
      not_passed: false,
      expires_at: status === 'missing' ? null : '2026-10-12T00:00:00.000Z',
    },
  ],
});
const list = <T,>(rows: T[], people = rows.length) => ({ people, cells: people, rows });

const dashboard = (o: Partial<ManagerDashboard> = {}): ManagerDashboard => ({
  entity: { id: 2, slug: 'oakfield', name: 'Oakfield House', level: 'B' },
  compliance_type: 'all',
  figures: figures(),
  trend: { previous: { month: '2026-10', score: 70 }, change: -4, months: [] },
  out_of_date: list([person(11, 'Ben Alpha', 'expired'), person(12, 'Cy Newstart', 'missing')], 12),
  expiring: { '30': list([person(13, 'Dee Soon', 'expiring')]), '60': list([]), '90': list([]) },
  pending: { total: 2, by_type: { historical: 2 } },
  new_starters: list([]),
  generated_at: '2026-11-25T12:00:00.000Z',
  ...o,
});

beforeEach(() => {
  permissionsStore.set(null);
  actingAsStore.set(null);
  calls.length = 0;
  handler = () => undefined;
  stubApi(({ url }) => {
    calls.push(url);
    if (url.pathname === '/api/entities') return json(200, { data: [], meta: {}, links: {} });
    return handler(url);
  });
  setUser(makeUser({ permissions: [105, 79, 13].map((id) => ({ id, slug: `p${id}` })) }));
});
afterEach(() => vi.unstubAllGlobals());

describe('/manager-dashboard', () => {
  it('names who is out of date, each a link to the person, with the home in view and the figures as links', async () => {
    handler = (url) =>
      url.pathname === '/api/dashboards/manager' ? json(200, { data: dashboard() }) : undefined;
    renderAt('/manager-dashboard');
    await screen.findByRole('link', { name: 'Ben Alpha' }, { timeout: 10_000 });
    expect(screen.getByTestId('dashboard-entity')).toHaveTextContent('Oakfield House');
    const card = document.getElementById('out-of-date') as HTMLElement;
    expect(within(card).getByRole('link', { name: 'Ben Alpha' })).toHaveAttribute('href', '/users/uuid-11');
    // The one status in words (contracts courseStatusText), as the learner's page and the inspection pack say it.
    expect(within(card).getByText('Expired on 12/10/2026')).toBeTruthy();
    expect(within(card).getByText('Never done')).toBeTruthy();
    // Figures: each a link to the list behind it.
    expect(screen.getByRole('link', { name: /Pending approvals\s*2/ })).toHaveAttribute(
      'href',
      '/results/pending/historical',
    );
    expect(screen.getByRole('link', { name: /Out of date now\s*12 people/ })).toHaveAttribute(
      'href',
      '#out-of-date',
    );
    expect(screen.getAllByText('▼ down 4 points since October 2026').length).toBeGreaterThan(0);
    expect(screen.getByText('No new starters: everyone is past their starter period.')).toBeTruthy();
  });

  it('"See all" pages through the whole list', async () => {
    handler = (url) => {
      if (url.pathname === '/api/dashboards/manager') return json(200, { data: dashboard() });
      if (url.pathname === '/api/dashboards/manager/people')
        return json(200, {
          data: [person(21, 'Eve Later', 'expired')],
          meta: { current_page: 1, last_page: 1, per_page: 25, total: 12, from: 1, to: 1 },
          links: {},
        });
      return undefined;
    };
    renderAt('/manager-dashboard');
    await userEvent.click(await screen.findByRole('button', { name: 'See all 12' }, { timeout: 10_000 }));
    expect(await screen.findByRole('link', { name: 'Eve Later' })).toBeTruthy();
    const people = calls.find((u) => u.pathname === '/api/dashboards/manager/people');
    expect(people?.searchParams.get('list')).toBe('out_of_date');
    expect(people?.searchParams.get('entity')).toBe('2');
  });

  it('says so in words without access', async () => {
    handler = (url) =>
      url.pathname === '/api/dashboards/manager'
        ? json(403, { message: 'This action is unauthorized.' })
        : undefined;
    renderAt('/manager-dashboard');
    expect(await screen.findByRole('alert', {}, { timeout: 10_000 })).toHaveTextContent(
      'You do not have access to the manager dashboard.',
    );
  });
});

describe('/management-dashboard', () => {
  const management = (): ManagementDashboard => ({
    entity: { id: 1, slug: 'meadowbrook', name: 'Meadowbrook Care Group', level: 'A' },
    compliance_type: 'all',
    figures: figures(),
    trend: { previous: null, change: null, months: [] },
    entities: [
      {
        id: 2,
        slug: 'oakfield',
        name: 'Oakfield House',
        level: 'B',
        rank: 1,
        ...figures({ score: 50 }),
        previous: { month: '2026-10', score: 55 },
        change: -5,
      },
    ],
    courses: [{ id: 9, title: 'Fire safety', ...figures({ score: 40 }) }],
    forecast: [{ month: '2026-11', expiries: 3, people: 2 }],
    expiring_30: { people: 2, cells: 3 },
    generated_at: '2026-11-25T12:00:00.000Z',
  });

  it('ranks the homes, each a link to its manager dashboard, with the worst courses and the forecast', async () => {
    handler = (url) =>
      url.pathname === '/api/dashboards/management' ? json(200, { data: management() }) : undefined;
    renderAt('/management-area');
    expect(await screen.findByRole('heading', { name: 'Management area' }, { timeout: 10_000 })).toBeTruthy();
    const ranked = await screen.findByRole('table', { name: /lowest score first/ });
    expect(within(ranked).getByRole('link', { name: 'Oakfield House' })).toHaveAttribute(
      'href',
      '/manager-dashboard?entity=2',
    );
    expect(within(ranked).getAllByText('▼ down 5 points since Oct 2026').length).toBeGreaterThan(0);
    expect(screen.getByRole('table', { name: 'Courses with the lowest in-date share' })).toHaveTextContent(
      'Fire safety',
    );
    expect(screen.getByRole('table', { name: /expiring each month/ })).toHaveTextContent('3 courses');
  });
});

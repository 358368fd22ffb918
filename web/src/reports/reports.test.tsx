import type { ComplianceEntityRow, ComplianceFigures } from '@cc/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { permissionsStore, setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { routes } from '../router';
import { makeUser } from '../test/factories';
import { type ApiCall, json, stubApi } from '../test/fake-api';
import { renderRoutes } from '../test/render-routes';
import { treeOrder } from './ComplianceReportPage';
import { bandOf } from './charts';

type Handler = (url: URL, call: ApiCall) => Response | undefined;
let handler: Handler = () => undefined;
const calls: { method: string; path: string; body: unknown }[] = [];

const renderAt = (path: string) => renderRoutes(routes, path);

const figures = (f: Partial<ComplianceFigures> = {}): ComplianceFigures => ({
  users: 2,
  required: 4,
  in_date: 3,
  expiring: 0,
  expired: 1,
  missing: 0,
  exempt: 0,
  score: 75,
  ...f,
});
const entity = (
  id: number,
  name: string,
  parent_id: number | null,
  f: Partial<ComplianceFigures> = {},
): ComplianceEntityRow => ({
  id,
  name,
  slug: name.toLowerCase().replace(/\s+/g, '-'),
  level: parent_id === null ? 'A' : 'B',
  parent_id,
  ...figures(f),
  own: figures(f),
});

beforeEach(() => {
  permissionsStore.set(null);
  actingAsStore.set(null);
  notificationsStore.set([]);
  calls.length = 0;
  handler = () => undefined;
  stubApi((call) => {
    calls.push({ method: call.method, path: call.url.pathname, body: call.body });
    // Anything a test does not answer (white-label, entities) is a 404, like an empty server.
    return handler(call.url, call);
  });
  setUser(
    makeUser({
      permissions: [13, 16, 17, 7].map((id) => ({ id, slug: `p${id}` })),
    }),
  );
});
afterEach(() => vi.unstubAllGlobals());

describe('helpers', () => {
  it('orders entities as a tree, parents first, siblings by name', () => {
    const rows = treeOrder([
      entity(3, 'Willow', 1),
      entity(1, 'Group', null),
      entity(2, 'Oak', 1),
      entity(4, 'Annex', 2),
    ]);
    expect(rows.map((r) => [r.row.name, r.depth])).toEqual([
      ['Group', 0],
      ['Oak', 1],
      ['Annex', 2],
      ['Willow', 1],
    ]);
  });
  it('bands scores with the margins', () => {
    expect([bandOf(85, 85, 65), bandOf(84, 85, 65), bandOf(65, 85, 65), bandOf(64, 85, 65)]).toEqual([
      'green',
      'amber',
      'amber',
      'red',
    ]);
  });
});

describe('/reports/compliance', () => {
  it('shows organisations with score bars, the trend and the courses', async () => {
    handler = (url) =>
      url.pathname === '/api/reports/compliance'
        ? json(200, {
            data: {
              months: [
                { month: '2026-09', ...figures({ score: 60 }) },
                { month: '2026-10', ...figures({ score: 70 }) },
              ],
              courses: [{ id: 9, title: 'Fire safety', ...figures({ score: 50 }) }],
              entities: [
                entity(1, 'Meadowbrook', null, { score: 90 }),
                entity(2, 'Oakfield House', 1, { score: 40 }),
              ],
              totals: figures({ score: 66 }),
              generated_at: new Date().toISOString(),
            },
          })
        : undefined;
    renderAt('/reports/compliance');
    const table = await screen.findByRole('table', { name: 'Compliance by organisation' });
    expect(within(table).getByText('Oakfield House')).toBeTruthy();
    expect(within(table).getByRole('meter', { name: /Oakfield House: 40%, poor/ })).toBeTruthy();
    expect(within(table).getByRole('meter', { name: /Meadowbrook: 90%, good/ })).toBeTruthy();
    expect(screen.getByRole('img', { name: /2026-09 60%, 2026-10 70%/ })).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Compliance by course' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Export PDF' })).toBeTruthy();
    expect(calls.find((c) => c.path === '/api/reports/compliance')?.body).toMatchObject({
      compliance_type: 'primary',
      new_starters_filter: 'include_new_starters',
    });
  });

  it('answers status 300 with the expected time and offers to e-mail the report', async () => {
    handler = (url, call) => {
      if (url.pathname !== '/api/reports/compliance') return undefined;
      const body = call.body as { emailFormat?: string };
      if (body.emailFormat)
        return json(200, { message: 'The report has been queued and will be e-mailed to you shortly.' });
      return json(300, { message: 'too large', expected_time: '3 minutes', expected_seconds: 170, cells: 9 });
    };
    renderAt('/reports/compliance');
    expect(await screen.findByText('This report is large; it will take about 3 minutes.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'E-mail it to me (XLSX)' }));
    expect(
      (await screen.findAllByText('The report has been queued and will be e-mailed to you shortly.')).length,
    ).toBeGreaterThan(0);
    expect(calls.filter((c) => c.path === '/api/reports/compliance').at(-1)?.body).toMatchObject({
      emailFormat: 'XLSX',
    });
  });

  it("shows the spec's message when the report fails", async () => {
    handler = (url) => (url.pathname === '/api/reports/compliance' ? json(500, {}) : undefined);
    renderAt('/reports/compliance');
    expect(await screen.findByText('Failed to fetch report. Please contact support')).toBeTruthy();
  });
});

describe('/reports/compliance drill-down by tag', () => {
  const report = () =>
    json(200, {
      data: {
        months: [],
        courses: [],
        entities: [entity(2, 'Oakfield House', null, { score: 40 })],
        totals: figures({ score: 40 }),
        generated_at: new Date().toISOString(),
      },
    });
  const user = {
    id: 41,
    uuid: 'u-41',
    name: 'Casey Lee',
    email: 'learner@demo.test',
    entity: { id: 2, name: 'Oakfield House' },
    new_starter: false,
    required: 2,
    in_date: 1,
    expiring: 0,
    expired: 0,
    missing: 1,
    score: 50,
  };

  it('is offered with permission 97 only', async () => {
    handler = (url) => (url.pathname === '/api/reports/compliance' ? report() : undefined);
    renderAt('/reports/compliance');
    await screen.findByTestId('drill-down');
    expect(screen.queryByRole('button', { name: 'By tag' })).toBeNull();
  });

  it('polls the tags every 5 s while the server answers 202, then drills into a tag', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      setUser(makeUser({ permissions: [13, 97].map((id) => ({ id, slug: `p${id}` })) }));
      let polls = 0;
      handler = (url) => {
        if (url.pathname === '/api/reports/compliance') return report();
        if (url.pathname === '/api/reports/drill-down/entities') return json(200, { data: [] });
        if (url.pathname === '/api/reports/drill-down/tags') {
          polls += 1;
          if (polls === 1) return json(202, { message: 'The report is being prepared.' });
          return json(200, {
            data: [
              {
                id: 5,
                name: 'Night shift',
                entity: { id: 2, name: 'Oakfield House' },
                users_count: 2,
                ...figures({ score: 50 }),
              },
            ],
          });
        }
        if (url.pathname === '/api/reports/drill-down/tags/5/users') return json(200, { data: [user] });
        return undefined;
      };
      const clicker = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderAt('/reports/compliance');
      const byTag = await screen.findByRole('button', { name: 'By tag' });
      expect(screen.getByRole('button', { name: 'By organisation' })).toHaveAttribute('aria-pressed', 'true');
      await clicker.click(byTag);
      expect(screen.getByRole('button', { name: 'By tag' })).toHaveAttribute('aria-pressed', 'true');
      expect(await screen.findByText(/checks again every 5 seconds/)).toBeTruthy();
      expect(polls).toBe(1);
      await vi.advanceTimersByTimeAsync(5000);
      const tags = await screen.findByRole('table', { name: 'Tags in Oakfield House' });
      expect(polls).toBe(2);
      expect(calls.find((c) => c.path === '/api/reports/drill-down/tags')).toBeTruthy();
      expect(within(tags).getByRole('meter', { name: /Night shift: 50%/ })).toBeTruthy();
      await clicker.click(within(tags).getByRole('button', { name: 'Staff tagged Night shift' }));
      const staff = await screen.findByRole('table', { name: 'Staff tagged Night shift in Oakfield House' });
      // Each name is a link to the person (keyboard reachable: a real <a href>).
      expect(within(staff).getByRole('link', { name: 'Casey Lee' })).toHaveAttribute('href', '/users/u-41');
      expect(within(staff).getByText('1 / 2')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });
});

import type { AscWdsPreview } from '@cc/contracts';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { permissionsStore, setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { navSections, visibleNav } from '../layouts/nav';
import { isBuiltPath, routes } from '../router';
import { makeUser } from '../test/factories';
import { renderRoutes } from '../test/render-routes';
import { peopleFile } from './AscWdsExportPage';

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
let handler: (url: URL, init: RequestInit | undefined) => Response | undefined = () => undefined;
const calls: { method: string; path: string; search: string; body: unknown }[] = [];

const renderAt = (path: string) => renderRoutes(routes, path);

const preview = (p: Partial<AscWdsPreview> = {}): AscWdsPreview => ({
  home: { id: 2, slug: 'oakfield', name: 'Oakfield House', local_establishment_id: 'OAK01' },
  since: 'last',
  last_export: null,
  rows: [
    {
      person: { uuid: 'u-1', name: 'Ann Lee', employee_number: 'E1' },
      course: { id: 9, title: 'Fire Safety' },
      category: 6,
      completed_on: '2025-01-15',
      expires_on: '2026-01-15',
      accredited: '1',
    },
  ],
  courses: [
    { id: 9, title: 'Fire Safety', category: 6, suggestion: null, records: 1 },
    { id: 10, title: 'Safeguarding Adults', category: null, suggestion: 20, records: 2 },
  ],
  missing_id: [{ uuid: 'u-3', name: 'Cy Noid', email: 'cy@example.test', records: 1 }],
  invalid: [],
  may_map: true,
  may_set_id: true,
  ...p,
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
        method: init?.method ?? 'GET',
        path: url.pathname,
        search: url.search,
        body: init?.body ? JSON.parse(String(init.body)) : undefined,
      });
      if (url.pathname === '/sanctum/csrf-cookie') return new Response(null, { status: 204 });
      return handler(url, init) ?? json(404, { message: 'Not found.' });
    }),
  );
  setUser(makeUser({ permissions: [13, 17, 2].map((id) => ({ id, slug: `p${id}` })) }));
});
afterEach(() => vi.unstubAllGlobals());

describe('/reports/asc-wds', () => {
  it('shows what will be sent and what is missing, with links to fix; a category is saved from the suggestion', async () => {
    handler = (url, init) => {
      if (url.pathname === '/api/entities/oakfield/asc-wds/training') return json(200, { data: preview() });
      if (url.pathname === '/api/entities/oakfield/asc-wds/categories/10' && init?.method === 'PUT')
        return json(200, {
          data: { course_id: 10, category: 20 },
          message: 'The ASC-WDS category has been saved.',
        });
      return undefined;
    };
    renderAt('/reports/asc-wds?home=oakfield');
    const table = await screen.findByRole('table', { name: 'Training records in the file' });
    expect(within(table).getByText('Ann Lee')).toBeTruthy();
    expect(within(table).getByText('Fire safety')).toBeTruthy();
    expect(within(table).getByText('15/01/2025 · 15/01/2026')).toBeTruthy();
    expect(within(table).getByText('Worker ID E1')).toBeTruthy();
    expect(screen.getByTestId('local-id').textContent).toBe('OAK01');
    expect(screen.getByTestId('to-send').textContent).toBe('1 record');
    // The person without an employee number: their page, and a people file for the importer (which sets the number).
    const people = screen.getByRole('list', { name: 'People missing an employee number' });
    expect(within(people).getByRole('link', { name: 'Cy Noid' }).getAttribute('href')).toBe('/users/u-3');
    expect(screen.getByRole('link', { name: 'Importer logs' }).getAttribute('href')).toBe('/importer/logs');
    expect(await peopleFile(preview()).text()).toBe(
      'name,email,employee_number\r\nCy Noid,cy@example.test,\r\n',
    );
    // The course without a category comes first, its suggestion chosen; Save sends it.
    expect(screen.getByText('Courses missing a category (1)')).toBeTruthy();
    const select = screen.getByRole('combobox', { name: 'ASC-WDS category of Safeguarding Adults' });
    expect((select as HTMLSelectElement).value).toBe('20');
    const row = select.closest('li') as HTMLElement;
    await userEvent.click(within(row).getByRole('button', { name: 'Save' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')).toMatchObject({
        path: '/api/entities/oakfield/asc-wds/categories/10',
        body: { category: 20 },
      }),
    );
    expect(
      calls.some((c) => c.path === '/api/entities/oakfield/asc-wds/training' && c.search === '?since=last'),
    ).toBe(true);
  });

  it('without a workplace ID: a link to the home’s settings, and no download', async () => {
    handler = (url) =>
      url.pathname === '/api/entities/oakfield/asc-wds/training'
        ? json(200, {
            data: preview({
              home: { id: 2, slug: 'oakfield', name: 'Oakfield House', local_establishment_id: null },
              rows: [],
            }),
          })
        : undefined;
    renderAt('/reports/asc-wds?home=oakfield&since=all');
    const link = await screen.findByRole('link', { name: 'Set it on the settings page' });
    expect(link.getAttribute('href')).toBe('/entities/oakfield/update#asc-wds');
    expect((screen.getByRole('button', { name: 'Download the file' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
    expect(calls.some((c) => c.search === '?since=all')).toBe(true);
  });

  it('downloads the file with a POST (recorded as the export), then reloads the preview', async () => {
    let posted = 0;
    handler = (url, init) => {
      if (url.pathname === '/api/entities/oakfield/asc-wds/training') return json(200, { data: preview() });
      if (url.pathname === '/api/entities/oakfield/asc-wds/exports' && init?.method === 'POST') {
        posted += 1;
        return new Response('LOCALESTID,UNIQUEWORKERID\r\n', {
          status: 201,
          headers: {
            'content-type': 'text/csv; charset=utf-8',
            'content-disposition': 'attachment; filename="asc-wds-training-oakfield-2026-11-29.csv"',
          },
        });
      }
      return undefined;
    };
    if (!URL.createObjectURL) Object.assign(URL, { createObjectURL: () => '', revokeObjectURL: () => {} });
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:x');
    renderAt('/reports/asc-wds?home=oakfield');
    await userEvent.click(await screen.findByRole('button', { name: 'Download the file' }));
    await vi.waitFor(() => expect(created).toHaveBeenCalled());
    expect(posted).toBe(1);
    const blob = (created.mock.calls[0] as unknown as [Blob])[0];
    expect(await blob.text()).toBe('LOCALESTID,UNIQUEWORKERID\r\n');
    created.mockRestore();
  });

  it('the Reports menu shows it only to holders of both 13 and 17 (what the server asks)', () => {
    const hrefs = (held: number[]) =>
      visibleNav(
        navSections({ entityAltName: 'Home', entitiesAltName: 'Homes', certificateGroupMenuName: 'Care' }),
        {
          can: (ids, mode = 'all') =>
            mode === 'all' ? ids.every((i) => held.includes(i)) : ids.some((i) => held.includes(i)),
          flags: { can_see_new_dashboards: true, can_manage_bookings: true },
          slug: 'oakfield',
          isBuilt: isBuiltPath,
        },
      ).flatMap((sec) => sec.items.map((i) => i.href));
    expect(hrefs([13])).not.toContain('/reports/asc-wds');
    expect(hrefs([13, 17])).toContain('/reports/asc-wds');
  });

  it('the Reports menu links to it for holders of 13 and 17', async () => {
    handler = (url) =>
      url.pathname === '/api/entities/oakfield/asc-wds/training' ? json(200, { data: preview() }) : undefined;
    renderAt('/reports/asc-wds?home=oakfield');
    const links = await screen.findAllByRole('link', { name: 'ASC-WDS export' });
    expect(links[0]?.getAttribute('href')).toBe('/reports/asc-wds');
  });
});

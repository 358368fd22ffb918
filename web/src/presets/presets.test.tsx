import { PresetMessages, type ReportPreset, type ReportSchedule } from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { actingAsStore } from '../app/acting-as';
import { permissionsStore, setUser } from '../app/auth';
import { notificationsStore } from '../app/notifications';
import { makeUser } from '../test/factories';
import { type ApiCall, json, paged, stubApi } from '../test/fake-api';
import {
  emptyPreset,
  foldIndexedErrors,
  formToBody,
  parseRecipients,
  presetSummary,
  presetToForm,
  scheduleFormToBody,
} from './logic';
import PresetsPage from './PresetsPage';
import SchedulesPage from './SchedulesPage';

type Handler = (method: string, path: string, body: unknown, url: URL) => Response | undefined;
let handler: Handler = () => undefined;
let calls: ApiCall[] = [];

const preset = (over: Partial<ReportPreset> = {}): ReportPreset => ({
  id: 5,
  uuid: 'p-5',
  user_id: 7,
  entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
  name: 'Monthly matrix',
  report_type: 'matrix',
  entities: [2],
  courses: [],
  pathways: [],
  users: [],
  roles: [3, 4],
  includeStatusTypes: [],
  includeStarters: true,
  compliance_type: 'primary',
  previousMonths: null,
  grade: null,
  filter_by: 'completed',
  course_type: null,
  period: 'last_month',
  from_date: null,
  to_date: null,
  primary_only: false,
  never_logged_in_only: false,
  date_completion: false,
  new_starters_filter: 'exclude_new_starters',
  care_certificate_filter: 'either',
  schedules_count: 1,
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

const schedule = (over: Partial<ReportSchedule> = {}): ReportSchedule => ({
  id: 9,
  uuid: 's-9',
  user_id: 7,
  entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
  preset: { id: 5, name: 'Monthly matrix', report_type: 'matrix' },
  frequency: 'weekly',
  time: '07:00',
  weekday: 1,
  day_of_month: null,
  timezone: 'Europe/London',
  cron: '0 7 * * 1',
  recipients: ['sam@example.test'],
  format: 'XLSX',
  active: true,
  next_run_at: '2026-11-23T07:00:00.000Z',
  last_run_at: '2026-11-16T07:00:00.000Z',
  last_status: 'failed',
  last_error: 'The matrix report cannot be generated yet: no report renderer is installed.',
  created_at: '2026-11-01T10:00:00.000Z',
  updated_at: '2026-11-01T10:00:00.000Z',
  ...over,
});

beforeEach(() => {
  notificationsStore.set([]);
  document.cookie = 'XSRF-TOKEN=t; path=/';
  setUser(makeUser({ permissions: [12, 117].map((id) => ({ id, slug: `p${id}` })) }));
  permissionsStore.set([12, 117]);
  calls = stubApi((c) => handler(c.method, c.route, c.body, c.url) ?? json(200, paged([])));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
  permissionsStore.set(null);
});

function renderAt(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/reports/presets', element: <PresetsPage /> },
      { path: '/reports/schedules', element: <SchedulesPage /> },
    ],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

describe('preset logic', () => {
  it('round-trips every field between the form and the body', () => {
    const p = preset({ previousMonths: 6, grade: 'Pass', from_date: '2026-01-01', course_type: 'scorm' });
    const body = formToBody(presetToForm(p), 2);
    expect(body).toMatchObject({
      name: 'Monthly matrix',
      roles: [3, 4],
      previousMonths: 6,
      grade: 'Pass',
      from_date: '2026-01-01',
      to_date: null,
      course_type: 'scorm',
      new_starters_filter: 'exclude_new_starters',
      acting_as_id: 2,
    });
    const empty = formToBody(emptyPreset());
    expect(empty).toMatchObject({ previousMonths: null, grade: null, course_type: null, from_date: null });
    expect(empty).not.toHaveProperty('acting_as_id');
  });

  it('summarises a preset in one line', () => {
    expect(presetSummary(preset())).toBe('Last month · 1 entity · 2 roles · Exclude new starters');
    expect(
      presetSummary(
        preset({
          from_date: '2026-01-01',
          roles: [],
          entities: [],
          new_starters_filter: 'include_new_starters',
        }),
      ),
    ).toBe('2026-01-01 to …');
  });

  it('reads recipients and folds indexed server errors', () => {
    expect(parseRecipients('a@x.test, b@x.test\nb@x.test; c@x.test')).toEqual([
      'a@x.test',
      'b@x.test',
      'c@x.test',
    ]);
    expect(foldIndexedErrors({ 'recipients.1': ['Bad'], 'recipients.0': ['Bad'], time: ['t'] })).toEqual({
      recipients: ['Bad'],
      time: ['t'],
    });
    expect(
      scheduleFormToBody({
        preset_id: '5',
        frequency: 'monthly',
        time: '06:15',
        weekday: '3',
        day_of_month: '28',
        timezone: 'Europe/London',
        recipients: 'a@x.test',
        format: 'PDF',
        active: true,
      }),
    ).toEqual({
      preset_id: 5,
      frequency: 'monthly',
      time: '06:15',
      weekday: null,
      day_of_month: 28,
      timezone: 'Europe/London',
      recipients: ['a@x.test'],
      format: 'PDF',
      active: true,
    });
  });
});

describe('/reports/presets', () => {
  it('lists presets and deletes one after a confirm', async () => {
    const user = userEvent.setup();
    let rows = [preset()];
    handler = (method, path) => {
      if (method === 'GET' && path === '/reports/presets') return json(200, paged(rows));
      if (method === 'DELETE' && path === '/reports/presets/5') {
        rows = [];
        return json(200, { message: PresetMessages.deleted });
      }
      return undefined;
    };
    renderAt('/reports/presets');
    expect(await screen.findByText('Monthly matrix')).toBeInTheDocument();
    expect(screen.getByText('Last month · 1 entity · 2 roles · Exclude new starters')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Delete Monthly matrix' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(within(dialog).getByText(/with its 1 schedule/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No report presets yet')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/reports/presets/5')).toBe(true);
    expect(notificationsStore.get().map((n) => n.message)).toContain(PresetMessages.deleted);
  });

  it('runs a matrix preset now as a file through POST /report (12 + 15 for XLSX; no PDF without 14)', async () => {
    const user = userEvent.setup();
    permissionsStore.set([12, 15, 117]);
    // jsdom has no object URLs (the page saves the file through one).
    const urls = URL as unknown as { createObjectURL?: unknown; revokeObjectURL?: unknown };
    urls.createObjectURL = () => 'blob:report';
    urls.revokeObjectURL = () => {};
    const saved: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      saved.push(this.getAttribute('download') ?? '');
    });
    handler = (method, path) => {
      if (method === 'GET' && path === '/reports/presets')
        return json(200, paged([preset({ entities: [] })]));
      if (method === 'POST' && path === '/report')
        return new Response('PK', {
          status: 200,
          headers: {
            'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
            'content-disposition': 'attachment; filename="matrix-Sam-01-12-2026.xlsx"',
          },
        });
      return undefined;
    };
    renderAt('/reports/presets');
    await user.click(await screen.findByRole('button', { name: 'Download Monthly matrix as XLSX' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === '/report')).toBe(true));
    expect(screen.queryByRole('button', { name: 'Download Monthly matrix as PDF' })).toBeNull();
    const post = calls.find((c) => c.method === 'POST' && c.path === '/report');
    // The preset's own entity when it names none; its filters as saved.
    expect(post?.body).toMatchObject({
      report_type: 'matrix',
      format: 'XLSX',
      entities: [2],
      roles: [3, 4],
      compliance_type: 'primary',
      new_starters_filter: 'exclude_new_starters',
    });
    expect(notificationsStore.get().filter((n) => n.type === 'error')).toEqual([]);
    click.mockRestore();
    delete urls.createObjectURL;
    delete urls.revokeObjectURL;
  });

  it('shows the spec message when the list fails', async () => {
    handler = (method, path) =>
      method === 'GET' && path === '/reports/presets' ? json(500, { message: '' }) : undefined;
    renderAt('/reports/presets');
    await waitFor(() =>
      expect(notificationsStore.get().map((n) => n.message)).toContain(PresetMessages.failedToFetch),
    );
    expect(await screen.findByText(PresetMessages.failedToFetch)).toBeInTheDocument();
  });

  it('creates a preset with acting_as_id and shows a field error from the server', async () => {
    const user = userEvent.setup();
    let attempt = 0;
    handler = (method, path, body) => {
      if (method === 'POST' && path === '/reports/presets') {
        attempt += 1;
        if (attempt === 1)
          return json(422, {
            message: 'The selected ids are not available to you.',
            errors: { name: ['The name has already been taken.'] },
          });
        return json(201, {
          data: preset({ name: (body as { name: string }).name }),
          message: PresetMessages.created,
        });
      }
      return undefined;
    };
    actingAsStore.set({ id: 1, slug: 'meadowbrook', name: 'Meadowbrook Care Group' });
    renderAt('/reports/presets');
    await user.click(await screen.findByRole('button', { name: 'Add preset' }));
    expect(screen.getByText('Meadowbrook Care Group')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create preset' }));
    expect(await screen.findByText('The name field is required.')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText(/^Name/), 'Weekly certificates');
    await user.selectOptions(screen.getByLabelText('Report type'), 'certificate');
    await user.selectOptions(screen.getByLabelText('Period'), 'last_week');
    await user.selectOptions(screen.getByLabelText('New starters'), 'new_starters_only');
    await user.click(screen.getByLabelText('Expired'));
    await user.click(screen.getByRole('button', { name: 'Create preset' }));
    expect(await screen.findByText('The name has already been taken.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create preset' }));
    await waitFor(() =>
      expect(notificationsStore.get().map((n) => n.message)).toContain(PresetMessages.created),
    );
    const post = calls.filter((c) => c.method === 'POST').at(-1)?.body as Record<string, unknown>;
    expect(post).toMatchObject({
      name: 'Weekly certificates',
      report_type: 'certificate',
      period: 'last_week',
      new_starters_filter: 'new_starters_only',
      includeStatusTypes: ['expired'],
      care_certificate_filter: 'either',
      acting_as_id: 1,
    });
    actingAsStore.set(null);
  });
});

describe('/reports/schedules', () => {
  it('shows next run, last run and its error, and runs, pauses and deletes', async () => {
    const user = userEvent.setup();
    let row = schedule();
    let deleted = false;
    handler = (method, path, body) => {
      if (method === 'GET' && path === '/reports/schedules') return json(200, paged(deleted ? [] : [row]));
      if (method === 'GET' && path === '/reports/presets') return json(200, paged([preset()]));
      if (method === 'POST' && path === '/reports/schedules/9/run') {
        row = { ...row, last_status: 'queued', last_error: null };
        return json(202, { data: row, message: PresetMessages.scheduleQueued });
      }
      if (method === 'PATCH' && path === '/reports/schedules/9') {
        row = { ...row, active: (body as { active: boolean }).active, next_run_at: null };
        return json(200, { data: row, message: PresetMessages.scheduleUpdated });
      }
      if (method === 'DELETE' && path === '/reports/schedules/9') {
        deleted = true;
        return json(200, { message: PresetMessages.scheduleDeleted });
      }
      return undefined;
    };
    renderAt('/reports/schedules');
    expect(await screen.findByText('Every Monday at 07:00')).toBeInTheDocument();
    expect(screen.getByText(/no report renderer is installed/)).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Run Monthly matrix now' }));
    expect(await screen.findByText('Queued')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Pause Monthly matrix' }));
    expect(await screen.findByText('Paused')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ active: false });

    await user.click(screen.getByRole('button', { name: 'Delete schedule of Monthly matrix' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No schedules yet')).toBeInTheDocument();
  });

  it('opens the form for ?preset= and validates the weekly day and recipients', async () => {
    const user = userEvent.setup();
    handler = (method, path) => {
      if (method === 'GET' && path === '/reports/presets') return json(200, paged([preset()]));
      if (method === 'POST' && path === '/reports/schedules')
        return json(422, {
          message: 'Each recipient must be a valid e-mail address.',
          errors: { 'recipients.0': ['Each recipient must be a valid e-mail address.'] },
        });
      return undefined;
    };
    renderAt('/reports/schedules?preset=5');
    const presetSelect = await screen.findByLabelText(/^Preset/);
    await waitFor(() => expect(presetSelect).toHaveValue('5'));
    expect(screen.getByLabelText(/^Recipients/)).toHaveValue('sam@example.test');
    await user.selectOptions(screen.getByLabelText('Repeat'), 'monthly');
    await user.selectOptions(screen.getByLabelText(/Day of the month/), '15');
    expect(screen.getByText(/Monthly on the 15th at 07:00, Europe\/London time/)).toBeInTheDocument();
    await user.clear(screen.getByLabelText(/^Recipients/));
    await user.click(screen.getByRole('button', { name: 'Create schedule' }));
    expect(await screen.findByText('Add at least one recipient.')).toBeInTheDocument();
    await user.type(screen.getByLabelText(/^Recipients/), 'x@y.test');
    await user.click(screen.getByRole('button', { name: 'Create schedule' }));
    expect(await screen.findAllByText('Each recipient must be a valid e-mail address.')).not.toHaveLength(0);
    const post = calls.find((c) => c.method === 'POST')?.body;
    expect(post).toMatchObject({
      preset_id: 5,
      frequency: 'monthly',
      day_of_month: 15,
      weekday: null,
      format: 'XLSX',
    });
  });
});

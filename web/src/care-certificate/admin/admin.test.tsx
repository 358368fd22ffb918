import {
  CareCertificateMessages,
  CareCertificatePerm,
  type CareCertificateReportRow,
  type CertificateSummary,
  type CertificateView,
  type CriteriaImportResult,
  type CriteriaImportRow,
  DEFAULT_WHITELABEL,
  type VersionGaps,
  type VersionSummary,
  type VersionView,
} from '@cc/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setUser } from '../../app/auth';
import { notificationsStore } from '../../app/notifications';
import { navSections, visibleNav } from '../../layouts/nav';
import { makeUser } from '../../test/factories';
import { type ApiCall, json, paged, stubApi } from '../../test/fake-api';
import { LearnerCareCertificateWidget } from '../widgets/LearnerCareCertificateWidget';
import { ManagerCareCertificateWidget } from '../widgets/ManagerCareCertificateWidget';
import {
  applyPreset,
  DEFAULT_REPORT_FILTERS,
  filtersFromSearch,
  filtersToSearch,
  reportParams,
  reportPath,
} from './api';
import { CourseCareCertificateCriteria } from './CourseCriteria';
import HistoricalEditPage, { changedFields, toForm } from './HistoricalEditPage';
import HistoricalPage from './HistoricalPage';
import ReportPage from './ReportPage';
import SettingsPage, { inheritedText } from './SettingsPage';
import StandardsPage from './StandardsPage';

type Call = ApiCall;
let calls: Call[] = [];
let handler: (c: Call) => Response | undefined = () => undefined;

beforeEach(() => {
  handler = () => undefined;
  notificationsStore.set([]);
  calls = stubApi((c) => handler(c));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUser(null);
});

function renderAt(path: string, routes: { path: string; Component: React.ComponentType }[]) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter([...routes, { path: '*', element: <p>elsewhere</p> }], {
    initialEntries: [path],
  });
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const withPerms = (ids: number[], extra: Parameters<typeof makeUser>[0] = {}) =>
  makeUser({ permissions: ids.map((id) => ({ id, slug: '' })), ...extra });

const versions: VersionSummary[] = [
  {
    id: 2,
    code: '2025',
    title: 'Care Certificate (2025)',
    effective_from: '2025-03-01',
    is_default: true,
    standards_count: 16,
    criteria_count: 120,
    certificates_count: 3,
  },
  {
    id: 1,
    code: '2015',
    title: 'Care Certificate (2015)',
    effective_from: '2015-04-01',
    is_default: false,
    standards_count: 15,
    criteria_count: 110,
    certificates_count: 0,
  },
];

const summary = (o: Partial<CertificateSummary> = {}): CertificateSummary => ({
  uuid: '11111111-1111-4111-8111-111111111111',
  user: {
    id: 9,
    uuid: 'u-9',
    name: 'Nia Starter',
    entity: { id: 2, slug: 'oakfield', name: 'Oakfield House' },
  },
  version: { id: 2, code: '2025', title: 'Care Certificate (2025)' },
  status: 'in_progress',
  historical: false,
  started_on: '2026-08-01',
  expected_by: '2026-10-24',
  completed_on: null,
  overdue: true,
  nmds: 'in_progress',
  standards_total: 16,
  standards_approved: 2,
  standards_awaiting_approval: 1,
  criteria_total: 120,
  criteria_evidenced: 30,
  assigned_by: 'Mo Manager',
  created_at: '2026-08-01T09:00:00.000Z',
  ...o,
});

describe('report query', () => {
  it('leaves defaults out, sends the unticked flags as 0 and id lists as repeated keys', () => {
    expect(reportParams(DEFAULT_REPORT_FILTERS, false)).toEqual(
      Object.fromEntries(Object.keys(reportParams(DEFAULT_REPORT_FILTERS, false)).map((k) => [k, undefined])),
    );
    const f = {
      ...DEFAULT_REPORT_FILTERS,
      entities: [3, 4],
      certificates: [2],
      includeOutstanding: false,
      care_certificate_filter: 'complete' as const,
      overdue_only: true,
      people: 'all' as const,
      page: 2,
    };
    expect(reportPath('/reports/care-certificate', f)).toBe(
      '/reports/care-certificate?entities=3&entities=4&certificates=2',
    );
    expect(reportParams(f)).toMatchObject({
      includeOutstanding: '0',
      includeApproved: undefined,
      care_certificate_filter: 'complete',
      overdue_only: '1',
      people: 'all',
      page: 2,
    });
  });
  it('keeps the filters in the address and reads them back', () => {
    expect(filtersToSearch(DEFAULT_REPORT_FILTERS).toString()).toBe('');
    const f = {
      ...DEFAULT_REPORT_FILTERS,
      entities: [3],
      certificates: [1, 2],
      includeApproved: false,
      overdue_only: true,
      care_certificate_filter: 'in_progress' as const,
      search: 'nia',
      view: 'standard' as const,
      page: 2,
    };
    expect(filtersFromSearch(filtersToSearch(f))).toEqual(f);
  });
  it('applies a preset’s organisations and in progress / complete choice, back to page 1', () => {
    const f = applyPreset(
      { ...DEFAULT_REPORT_FILTERS, page: 3 },
      { entities: [5], care_certificate_filter: 'in_progress' },
    );
    expect(f).toMatchObject({ entities: [5], care_certificate_filter: 'in_progress', page: 1 });
  });
});

describe('report page', () => {
  const row: CareCertificateReportRow = {
    user: summary().user,
    role: 'Care Assistant',
    start_date: '2026-08-01',
    certificate: (({ user: _u, ...c }) => c)(summary()),
    nmds: 'in_progress',
    standards: { '1': 'approved', '2': 'awaiting_approval', '3': 'working_towards', '4': 'outstanding' },
  };
  it('shows each person with status cells in words, the overdue date, and exports the same query', async () => {
    setUser(withPerms([CareCertificatePerm.report]));
    handler = (c) => {
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.path.startsWith('/reports/presets')) return json(200, paged([]));
      if (c.path.startsWith('/entities')) return json(200, paged([]));
      if (c.path.startsWith('/reports/care-certificate/export/xlsx'))
        return new Response(new Blob(['x']), {
          status: 200,
          headers: {
            'content-type': 'application/octet-stream',
            'content-disposition': 'attachment; filename="cc.xlsx"',
          },
        });
      if (c.path.startsWith('/reports/care-certificate')) return json(200, paged([row]));
      return undefined;
    };
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    renderAt('/reports/care-certificate', [{ path: '/reports/care-certificate', Component: ReportPage }]);
    expect(await screen.findByRole('link', { name: 'Nia Starter' })).toHaveAttribute(
      'href',
      '/care-certificate/11111111-1111-4111-8111-111111111111',
    );
    expect(screen.getByRole('img', { name: 'Standard 2: Awaiting approval' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Standard 4: Outstanding' })).toBeInTheDocument();
    expect(screen.getByText(/\(overdue\)/)).toBeInTheDocument();
    expect(screen.getByText('In progress or partially completed')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('checkbox', { name: 'Outstanding' }));
    await waitFor(() => expect(calls.some((c) => c.path.includes('includeOutstanding=0'))).toBe(true));
    expect(screen.getByRole('checkbox', { name: 'Outstanding' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Outstanding' }));
    expect(screen.getByRole('checkbox', { name: 'Outstanding' })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: 'Outstanding' }));
    await userEvent.click(screen.getByRole('button', { name: 'Export XLSX' }));
    await waitFor(() =>
      expect(calls.find((c) => c.path.startsWith('/reports/care-certificate/export/xlsx'))?.path).toContain(
        'includeOutstanding=0',
      ),
    );
  });
  it('switches to the per-standard counts', async () => {
    setUser(withPerms([CareCertificatePerm.report]));
    handler = (c) => {
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.path.startsWith('/reports/presets') || c.path.startsWith('/entities'))
        return json(200, paged([]));
      if (c.path.includes('view=standard'))
        return json(200, {
          data: [
            {
              version_code: '2025',
              number: 1,
              title: 'Understand your role',
              outstanding: 1,
              working_towards: 2,
              awaiting_approval: 0,
              approved: 5,
            },
          ],
        });
      if (c.path.startsWith('/reports/care-certificate')) return json(200, paged([]));
      return undefined;
    };
    renderAt('/r', [{ path: '/r', Component: ReportPage }]);
    await screen.findByText('No one matches these filters');
    await userEvent.click(screen.getByRole('button', { name: 'By standard' }));
    expect(await screen.findByText('1. Understand your role')).toBeInTheDocument();
  });
});

const view = (o: Partial<CertificateView> = {}): CertificateView => ({
  ...summary({
    historical: true,
    status: 'complete',
    completed_on: '2025-06-30',
    overdue: false,
    nmds: 'completed',
  }),
  provider: 'Brightwell Training',
  assessor_name: 'A. Assessor',
  notes: null,
  standards: [],
  files: [
    {
      id: 31,
      description: null,
      original_name: 'certificate.pdf',
      mime_type: 'application/pdf',
      added_by: 'Mo Manager',
      created_at: '2026-11-01T10:00:00.000Z',
      download_url: '/api/care-certificates/11111111-1111-4111-8111-111111111111/evidence/31/file',
    },
  ],
  observations: [],
  decisions: [],
  can: {
    upload: true,
    observe: false,
    delete_observation: false,
    submit: false,
    approve: false,
    download: false,
    withdraw: false,
    edit_historical: true,
  },
  ...o,
});

describe('historical certificates', () => {
  it('sends only the changed fields', () => {
    const before = toForm(view());
    expect(changedFields(before, { ...before, provider: 'Other' })).toEqual({ provider: 'Other' });
    expect(changedFields(before, { ...before, notes: '  ' })).toEqual({});
    expect(changedFields(before, { ...before, started_on: '' })).toEqual({ started_on: null });
  });

  it('records one: checks the fields first, then posts the contract’s body', async () => {
    setUser(withPerms([CareCertificatePerm.historical, 21]));
    handler = (c) => {
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.path.startsWith('/users'))
        return json(
          200,
          paged([
            { id: 9, name: 'Nia Starter', email: 'nia@x.test', primary_entity: { name: 'Oakfield House' } },
          ]),
        );
      if (c.method === 'POST' && c.path === '/historical-care-certificates')
        return json(201, { data: summary({ historical: true }), message: 'Historical certificate saved.' });
      if (c.path.startsWith('/historical-care-certificates')) return json(200, paged([]));
      return undefined;
    };
    renderAt('/h', [{ path: '/h', Component: HistoricalPage }]);
    await userEvent.click(await screen.findByRole('button', { name: 'Record a historical certificate' }));
    await userEvent.click(screen.getByRole('button', { name: 'Save certificate' }));
    expect(await screen.findByText('Choose a person.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.click(await screen.findByRole('button', { name: /Nia Starter/ }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: /Version/ }), '2');
    await userEvent.type(screen.getByLabelText(/Provider/), 'Brightwell Training');
    await userEvent.type(screen.getByLabelText(/Completed on/), '2025-06-30');
    await userEvent.click(screen.getByRole('button', { name: 'Save certificate' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        user_id: 9,
        version_id: 2,
        completed_on: '2025-06-30',
        started_on: null,
        provider: 'Brightwell Training',
        assessor_name: null,
        notes: null,
      }),
    );
  });

  it('edits one with a PATCH of the changed field, and removes a file after a confirm', async () => {
    setUser(withPerms([CareCertificatePerm.historical]));
    const uuid = '11111111-1111-4111-8111-111111111111';
    handler = (c) => {
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.method === 'PATCH')
        return json(200, {
          data: view({ provider: 'Other provider' }),
          message: 'Historical certificate saved.',
        });
      if (c.method === 'DELETE') return json(200, { data: null, message: 'Evidence removed.' });
      if (c.path === `/historical-care-certificates/${uuid}`) return json(200, { data: view() });
      return undefined;
    };
    renderAt(`/care-certificate/historical/update/${uuid}`, [
      { path: '/care-certificate/historical/update/:uuid', Component: HistoricalEditPage },
    ]);
    const provider = await screen.findByLabelText(/Provider/);
    await userEvent.clear(provider);
    await userEvent.type(provider, 'Other provider');
    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ provider: 'Other provider' }),
    );

    await userEvent.click(screen.getByRole('button', { name: 'Remove certificate.pdf' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'DELETE')?.path).toBe(`/care-certificates/${uuid}/evidence/31`),
    );
  });
});

const gaps: VersionGaps = {
  version_id: 2,
  code: '2025',
  title: 'Care Certificate (2025)',
  complete: false,
  standards_without_criteria: [4],
  standards: [
    { number: 1, title: 'Understand your role', criteria_count: 1, missing: ['1.1b'], sources: [] },
    {
      number: 4,
      title: 'Equality, diversity, inclusion and human rights',
      criteria_count: 0,
      missing: [],
      sources: [{ label: 'Standard 4 in the official standards', url: 'https://www.skillsforcare.org.uk/x' }],
    },
  ],
  sources: [
    { label: 'Skills for Care: The Care Certificate standards', url: 'https://www.skillsforcare.org.uk/x' },
  ],
};

describe('criteria import (issue 32 §2)', () => {
  const row = (code: string, change: CriteriaImportRow['change']): CriteriaImportRow => ({
    row: 2,
    code,
    outcome: code.slice(0, 3),
    wording: `Wording of ${code}`,
    kind: 'knowledge',
    change,
    before: change === 'changed' ? { wording: 'Old wording', kind: 'knowledge' } : null,
  });
  const preview: CriteriaImportResult = {
    version_id: 2,
    version_code: '2025',
    applied: false,
    added: 1,
    changed: 1,
    unchanged: 0,
    outcomes_added: ['4.1'],
    rows: [
      { ...row('4.1a', 'added'), row: 2 },
      { ...row('1.1a', 'changed'), row: 3 },
    ],
    gaps,
  };
  const file = () =>
    new File(['code,outcome,wording,kind\n4.1a,4.1,x,knowledge\n'], 'c.csv', { type: 'text/csv' });

  it('lists what is missing with the official source, previews a file and applies it', async () => {
    setUser(makeUser({ super_admin: true }));
    handler = (c) => {
      if (c.path.includes('/gaps')) return json(200, { data: gaps });
      if (c.path.includes('/criteria-import/preview')) return json(200, { data: preview, message: 'x' });
      if (/criteria-import(\?|$)/.test(c.path))
        return json(200, {
          data: { ...preview, applied: true },
          message: CareCertificateMessages.criteriaImported,
        });
      if (c.path.startsWith('/care-certificate-versions/2'))
        return json(200, { data: { ...versions[1], standards: [] } });
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      return undefined;
    };
    renderAt('/s?version=2', [{ path: '/s', Component: StandardsPage }]);
    expect(
      await screen.findByText(/1 of 2 standards have no criteria yet \(Standard 4\)/),
    ).toBeInTheDocument();
    expect(screen.getByText('Missing: 1.1b')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Standard 4 in the official standards' })).toHaveAttribute(
      'href',
      'https://www.skillsforcare.org.uk/x',
    );
    const input = screen.getByLabelText('File');
    await userEvent.upload(input, file());
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    expect(await screen.findByText(/Nothing is changed until you apply it/)).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Rows of the file' });
    expect(within(table).getByText('Added')).toBeInTheDocument();
    expect(within(table).getByText('Was: Old wording')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
      '/care-certificate-versions/2/criteria-import/preview',
    ]);
    await userEvent.click(screen.getByRole('button', { name: 'Apply 2 changes' }));
    await waitFor(() =>
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([
        '/care-certificate-versions/2/criteria-import/preview',
        '/care-certificate-versions/2/criteria-import',
      ]),
    );
    expect(calls.find((c) => /criteria-import(\?|$)/.test(c.path))?.body).toBeInstanceOf(FormData);
  });

  it('shows every refused row and applies nothing', async () => {
    setUser(makeUser({ super_admin: true }));
    handler = (c) => {
      if (c.path.includes('/gaps')) return json(200, { data: gaps });
      if (c.path.includes('/criteria-import/preview'))
        return json(422, {
          message: 'Row 2: version 2015 has no Standard 16 (16.1a is a code of version 2025).',
          errors: {
            'rows.2.code': ['Row 2: version 2015 has no Standard 16 (16.1a is a code of version 2025).'],
            'rows.3.kind': ['Row 3: enter knowledge or observed.'],
          },
        });
      if (c.path.startsWith('/care-certificate-versions/2'))
        return json(200, { data: { ...versions[1], standards: [] } });
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      return undefined;
    };
    renderAt('/s?version=2', [{ path: '/s', Component: StandardsPage }]);
    await userEvent.upload(await screen.findByLabelText('File'), file());
    await userEvent.click(screen.getByRole('button', { name: 'Preview' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Nothing was imported: fix the file and try again.');
    expect(alert).toHaveTextContent('Row 2: version 2015 has no Standard 16');
    expect(alert).toHaveTextContent('Row 3: enter knowledge or observed.');
    expect(screen.queryByRole('button', { name: /Apply/ })).toBeNull();
  });
});

describe('standards editor', () => {
  const tree: VersionView = {
    ...versions[0],
    standards: [
      {
        id: 11,
        number: 1,
        title: 'Understand your role',
        outcomes: [
          {
            id: 21,
            code: '1.1',
            title: 'Understand your own role',
            position: 0,
            criteria: [
              {
                id: 31,
                code: '1.1a',
                text: 'Describe your main duties',
                requires_observation: false,
                position: 0,
              },
            ],
          },
        ],
      },
    ],
  };
  it('tells others that only a super admin can edit', async () => {
    setUser(withPerms([CareCertificatePerm.assign]));
    renderAt('/s', [{ path: '/s', Component: StandardsPage }]);
    expect(await screen.findByText('Only a super admin can edit the standards.')).toBeInTheDocument();
  });
  it('lets a super admin edit a criterion in place and toggle its observation', async () => {
    setUser(makeUser({ super_admin: true }));
    handler = (c) => {
      if (c.path.includes('/gaps')) return json(200, { data: gaps });
      if (c.path.startsWith('/care-certificate-versions/2')) return json(200, { data: tree });
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.method === 'PATCH') return json(200, { data: {}, message: 'Standards updated.' });
      return undefined;
    };
    renderAt('/s', [{ path: '/s', Component: StandardsPage }]);
    await userEvent.click(await screen.findByText('1. Understand your role'));
    await userEvent.click(screen.getByRole('button', { name: 'Edit criterion 1.1a' }));
    const form = screen.getByRole('form', { name: 'Edit criterion 1.1a' });
    const text = within(form).getByLabelText(/Criterion/);
    await userEvent.clear(text);
    await userEvent.type(text, 'Describe your main duties and responsibilities');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toEqual({
        method: 'PATCH',
        path: '/care-certificate-criteria/31',
        body: {
          code: '1.1a',
          text: 'Describe your main duties and responsibilities',
          requires_observation: false,
        },
      }),
    );
  });
});

describe('versions', () => {
  it('makes another version the default and creates a new one copied from the default', async () => {
    setUser(makeUser({ super_admin: true }));
    handler = (c) => {
      if (c.path.includes('/gaps')) return json(200, { data: { ...gaps, version_id: 1 } });
      if (/\/care-certificate-versions\/\d+$/.test(c.path.split('?')[0]))
        return json(200, { data: { ...versions[1], standards: [] } });
      if (c.method === 'GET' && c.path.startsWith('/care-certificate-versions'))
        return json(200, { data: versions });
      if (c.method === 'PATCH') return json(200, { data: {}, message: 'Standards updated.' });
      if (c.method === 'POST')
        return json(201, { data: { ...versions[0], id: 3 }, message: 'Standards updated.' });
      return undefined;
    };
    renderAt('/s?version=1', [{ path: '/s', Component: StandardsPage }]);
    await userEvent.click(await screen.findByRole('button', { name: 'Make default' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')).toMatchObject({
        path: '/care-certificate-versions/1',
        body: { is_default: true },
      }),
    );
    expect(screen.getByRole('button', { name: 'Delete version' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New version' }));
    const form = screen.getByRole('form', { name: 'New version' });
    await userEvent.type(within(form).getByLabelText(/^Code/), '2027');
    await userEvent.type(within(form).getByLabelText(/^Title/), 'Care Certificate (2027)');
    await userEvent.click(within(form).getByRole('button', { name: 'Create version' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        code: '2027',
        title: 'Care Certificate (2027)',
        effective_from: null,
        copy_from_id: 2,
      }),
    );
  });
});

describe('settings', () => {
  it('says where the values come from', () => {
    expect(
      inheritedText(
        {
          entity_id: 2,
          expected_weeks: 10,
          default_version_id: null,
          inherited_from: { id: 1, name: 'Group' },
        },
        'Oakfield',
      ),
    ).toBe('Inherited from Group until you save settings for Oakfield.');
    expect(
      inheritedText(
        { entity_id: 2, expected_weeks: 12, default_version_id: null, inherited_from: null },
        'Oakfield',
      ),
    ).toMatch(/defaults apply/);
  });
  it('saves both values the first time an organisation saves its own', async () => {
    setUser(withPerms([CareCertificatePerm.assign]));
    handler = (c) => {
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.method === 'PATCH')
        return json(200, {
          data: {
            entity_id: 1,
            expected_weeks: 8,
            default_version_id: null,
            inherited_from: { id: 1, name: 'Meadowbrook' },
          },
          message: 'Settings updated.',
        });
      if (c.path.startsWith('/care-certificate-settings'))
        return json(200, {
          data: { entity_id: 1, expected_weeks: 12, default_version_id: null, inherited_from: null },
        });
      return undefined;
    };
    renderAt('/x', [{ path: '/x', Component: SettingsPage }]);
    const weeks = await screen.findByLabelText(/Expected completion/);
    await userEvent.clear(weeks);
    await userEvent.type(weeks, '8');
    await userEvent.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({
        expected_weeks: 8,
        default_version_id: null,
      }),
    );
  });
});

describe('navigation and widgets', () => {
  const nav = (can: number[], superAdmin = false) =>
    visibleNav(navSections(DEFAULT_WHITELABEL), {
      can: (ids) => ids.some((id) => can.includes(id)),
      flags: {},
      slug: 'x',
      isBuilt: () => true,
      superAdmin,
    }).flatMap((s) => s.items.map((i) => i.href));
  it('offers each page to those who may use it, standards to super admins only', () => {
    expect(nav([CareCertificatePerm.historical])).toContain('/care-certificate/historical');
    expect(nav([CareCertificatePerm.report])).toContain('/reports/care-certificate');
    expect(nav([CareCertificatePerm.assign])).toContain('/care-certificate/settings');
    expect(nav([CareCertificatePerm.assign])).not.toContain('/care-certificate/standards');
    expect(nav([], true)).toContain('/care-certificate/standards');
  });
  it('hides the learner card without a certificate and shows the next criteria with one', async () => {
    setUser(makeUser());
    handler = () => json(200, { data: { certificate: null, next: [] } });
    const client = new QueryClient();
    const router = createMemoryRouter([{ path: '/', Component: LearnerCareCertificateWidget }]);
    const { container, unmount } = render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await waitFor(() =>
      expect(calls.some((c) => c.path.startsWith('/dashboard/care-certificate'))).toBe(true),
    );
    await new Promise((r) => setTimeout(r, 20));
    expect(container.textContent).toBe('');
    unmount();
    handler = () =>
      json(200, {
        data: {
          certificate: summary(),
          next: [
            {
              standard_number: 1,
              standard_title: 'Understand your role',
              code: '1.1a',
              text: 'Describe your main duties',
            },
          ],
        },
      });
    renderAt('/', [{ path: '/', Component: LearnerCareCertificateWidget }]);
    expect(await screen.findByText('Describe your main duties')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Open my Care Certificate/ })).toBeInTheDocument();
  });
});

describe('manager widget and course criteria', () => {
  it('shows the figures and links the overdue people to their certificates', async () => {
    setUser(withPerms([CareCertificatePerm.approve]));
    handler = () =>
      json(200, {
        data: {
          working_towards: 4,
          awaiting_approval: 1,
          overdue: 1,
          complete: 2,
          overdue_people: [summary()],
          awaiting_people: [],
        },
      });
    renderAt('/', [{ path: '/', Component: ManagerCareCertificateWidget }]);
    expect(await screen.findByRole('link', { name: 'Nia Starter' })).toHaveAttribute(
      'href',
      '/care-certificate/11111111-1111-4111-8111-111111111111',
    );
    expect(screen.getByText('Nothing is waiting for approval.')).toBeInTheDocument();
  });
  it('is not shown without a view permission', async () => {
    setUser(withPerms([CareCertificatePerm.report]));
    renderAt('/', [{ path: '/', Component: ManagerCareCertificateWidget }]);
    await new Promise((r) => setTimeout(r, 20));
    expect(calls.filter((c) => c.path.startsWith('/dashboard'))).toEqual([]);
  });
  it('saves a course’s criteria as the whole list', async () => {
    setUser(withPerms([63]));
    const tree: VersionView = {
      ...versions[0],
      standards: [
        {
          id: 11,
          number: 1,
          title: 'Understand your role',
          outcomes: [
            {
              id: 21,
              code: '1.1',
              title: null,
              position: 0,
              criteria: [
                {
                  id: 31,
                  code: '1.1a',
                  text: 'Describe your main duties',
                  requires_observation: false,
                  position: 0,
                },
                {
                  id: 32,
                  code: '1.1b',
                  text: 'List the standards',
                  requires_observation: false,
                  position: 1,
                },
              ],
            },
          ],
        },
      ],
    };
    handler = (c) => {
      if (c.path.includes('/gaps')) return json(200, { data: gaps });
      if (c.path.startsWith('/care-certificate-versions/2')) return json(200, { data: tree });
      if (c.path.startsWith('/care-certificate-versions')) return json(200, { data: versions });
      if (c.method === 'PUT')
        return json(200, { data: { course_id: 5, criteria: [] }, message: 'Criteria saved.' });
      if (c.path === '/courses/5/care-certificate-criteria')
        return json(200, {
          data: {
            course_id: 5,
            criteria: [{ id: 31, code: '1.1a', text: 'x', version_code: '2025', standard_number: 1 }],
          },
        });
      return undefined;
    };
    renderAt('/', [{ path: '/', Component: () => <CourseCareCertificateCriteria courseId={5} /> }]);
    expect(await screen.findByRole('checkbox', { name: /1\.1a/ })).toBeChecked();
    await userEvent.click(screen.getByRole('checkbox', { name: /1\.1b/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save criteria' }));
    await waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ criterion_ids: [31, 32] }),
    );
  });
});

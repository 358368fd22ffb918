import {
  CareCertificatePerm,
  type CareCertificateReportRow,
  formatDate,
  type ReportPreset,
} from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { isApiError } from '../../app/api';
import { usePermission } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { useWhitelabel } from '../../app/whitelabel';
import { IdPicker } from '../../presets/IdPicker';
import { download } from '../../reports/api';
import { ReportMessages } from '../../reports/messages';
import {
  Button,
  Card,
  Checkbox,
  cx,
  DataTable,
  EmptyState,
  PageHeader,
  Pagination,
  SearchInput,
  Select,
  Spinner,
} from '../../ui';
import {
  applyPreset,
  exportCareCertificateReport,
  fetchReportPresets,
  filtersFromSearch,
  filtersToSearch,
  type ReportFilters,
  searchOrganisations,
  useCareCertificateReport,
  useVersions,
} from './api';
import { named, nmdsLabel, StandardCell, StatusLegend } from './labels';

const INCLUDES: { key: keyof ReportFilters; label: string }[] = [
  { key: 'includeApproved', label: 'Approved' },
  { key: 'includeAwaitingApproval', label: 'Awaiting approval' },
  { key: 'includeWorkingTowards', label: 'Working towards' },
  { key: 'includeOutstanding', label: 'Outstanding' },
];

/** A pair of toggle buttons (aria-pressed), like the compliance report's "By organisation / By tag". */
function ViewSwitch({
  view,
  onChange,
}: {
  view: ReportFilters['view'];
  onChange: (v: ReportFilters['view']) => void;
}) {
  const option = (value: ReportFilters['view'], label: string) => (
    <button
      type="button"
      aria-pressed={view === value}
      onClick={() => onChange(value)}
      className={cx(
        'focus-ring px-3 py-1.5 text-sm font-medium',
        view === value ? 'bg-primary-700 text-white' : 'bg-white text-slate-700 hover:bg-slate-50',
      )}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="flex overflow-hidden rounded-lg ring-1 ring-slate-300">
      <legend className="sr-only">Show</legend>
      {option('person', 'By person')}
      {option('standard', 'By standard')}
    </fieldset>
  );
}

/** Export PDF / XLSX of the report with the filters on screen (spec 2 §8's failure and empty messages). */
function ExportButtons({ filters }: { filters: ReportFilters }) {
  const [busy, setBusy] = useState<'pdf' | 'xlsx' | null>(null);
  const run = async (format: 'pdf' | 'xlsx') => {
    setBusy(format);
    await download(
      () => exportCareCertificateReport(filters, format),
      `care-certificate.${format}`,
      ReportMessages.exportFailed,
      () => notifyError(null, ReportMessages.emptyExport),
    );
    setBusy(null);
  };
  return (
    <>
      <Button variant="secondary" loading={busy === 'pdf'} onClick={() => void run('pdf')}>
        Export PDF
      </Button>
      <Button variant="secondary" loading={busy === 'xlsx'} onClick={() => void run('xlsx')}>
        Export XLSX
      </Button>
    </>
  );
}

/** Offers the caller's saved report presets; choosing one applies its organisations and in progress / complete. */
function PresetPicker({ onApply }: { onApply: (p: ReportPreset) => void }) {
  const presets = useQuery({
    queryKey: ['care-certificate', 'presets'],
    queryFn: fetchReportPresets,
    retry: false,
  });
  const [chosen, setChosen] = useState('');
  if (presets.isError || (presets.data && presets.data.length === 0)) return null;
  return (
    <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <div className="flex-1">
        <Select
          label="Saved preset"
          value={chosen}
          onChange={(e) => setChosen(e.target.value)}
          placeholder={presets.isLoading ? 'Loading…' : 'Choose a preset'}
          options={(presets.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
        />
      </div>
      <Button
        variant="secondary"
        disabled={!chosen}
        onClick={() => {
          const p = presets.data?.find((x) => String(x.id) === chosen);
          if (p) onApply(p);
        }}
      >
        Apply preset
      </Button>
    </div>
  );
}

function Filters({ filters, set }: { filters: ReportFilters; set: (patch: Partial<ReportFilters>) => void }) {
  const versions = useVersions();
  return (
    <div className="space-y-5">
      <PresetPicker onApply={(p) => set(applyPreset(filters, p))} />
      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <IdPicker
          label="Organisations"
          hint="Everyone in scope when none is chosen."
          selected={filters.entities}
          onChange={(entities) => set({ entities })}
          load={searchOrganisations}
          queryKey={['care-certificate', 'report-entities']}
        />
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">Versions</legend>
          {versions.isLoading ? <p className="text-sm text-slate-600">Loading…</p> : null}
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            {(versions.data ?? []).map((v) => (
              <Checkbox
                key={v.id}
                label={v.title}
                checked={filters.certificates.includes(v.id)}
                onChange={(e) =>
                  set({
                    certificates: e.target.checked
                      ? [...filters.certificates, v.id]
                      : filters.certificates.filter((id) => id !== v.id),
                  })
                }
              />
            ))}
          </div>
          <p className="text-xs text-slate-600">All versions when none is ticked.</p>
        </fieldset>
      </div>
      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-slate-800">Include people with a standard that is</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {INCLUDES.map((i) => (
            <Checkbox
              key={i.key}
              label={i.label}
              checked={filters[i.key] as boolean}
              onChange={(e) => set({ [i.key]: e.target.checked })}
            />
          ))}
        </div>
      </fieldset>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
        <Select
          label="Certificate"
          value={filters.care_certificate_filter}
          onChange={(e) =>
            set({ care_certificate_filter: e.target.value as ReportFilters['care_certificate_filter'] })
          }
          options={[
            { value: 'either', label: 'Any' },
            { value: 'in_progress', label: 'In progress' },
            { value: 'complete', label: 'Complete' },
          ]}
        />
        <Select
          label="People"
          value={filters.people}
          onChange={(e) => set({ people: e.target.value as ReportFilters['people'] })}
          options={[
            { value: 'with_certificate', label: 'With a certificate' },
            { value: 'all', label: 'Everyone' },
          ]}
        />
        <div className="flex items-end pb-2">
          <Checkbox
            label="Overdue only"
            checked={filters.overdue_only}
            onChange={(e) => set({ overdue_only: e.target.checked })}
          />
        </div>
        <div className="flex items-end">
          <div className="w-full">
            <SearchInput
              label="Search people"
              value={filters.search}
              onSearch={(search) => set({ search })}
            />
          </div>
        </div>
      </div>
    </div>
  );
}

function PersonTable({ rows, loading }: { rows: CareCertificateReportRow[] | undefined; loading: boolean }) {
  return (
    <DataTable
      caption="Certificates by person"
      rows={rows}
      loading={loading}
      rowKey={(r) => r.user.id}
      empty={
        <EmptyState
          title="No one matches these filters"
          description="Tick more statuses, choose other organisations or show everyone."
        />
      }
      columns={[
        {
          key: 'person',
          header: 'Person',
          render: (r) =>
            r.certificate ? (
              <Link
                to={`/care-certificate/${r.certificate.uuid}`}
                className="focus-ring rounded font-medium text-primary-800 hover:underline"
              >
                {r.user.name}
              </Link>
            ) : (
              <span className="font-medium">{r.user.name}</span>
            ),
        },
        {
          key: 'organisation',
          header: 'Organisation',
          render: (r) => r.user.entity.name,
          hideOnMobile: true,
        },
        {
          key: 'version',
          header: 'Version',
          render: (r) => r.certificate?.version.code ?? '—',
          hideOnMobile: true,
        },
        {
          key: 'started',
          header: 'Started',
          render: (r) => (r.certificate ? formatDate(r.certificate.started_on) : '—'),
          hideOnMobile: true,
        },
        {
          key: 'expected',
          header: 'Expected by',
          render: (r) =>
            r.certificate?.completed_on ? (
              <span>Completed {formatDate(r.certificate.completed_on)}</span>
            ) : r.certificate?.expected_by ? (
              <span className={r.certificate.overdue ? 'font-semibold text-danger-700' : undefined}>
                {formatDate(r.certificate.expected_by)}
                {r.certificate.overdue ? ' (overdue)' : ''}
              </span>
            ) : (
              '—'
            ),
          hideOnMobile: true,
        },
        {
          key: 'standards',
          header: 'Standards',
          render: (r) => {
            const entries = Object.entries(r.standards).sort((a, b) => Number(a[0]) - Number(b[0]));
            return entries.length ? (
              <div className="flex max-w-[22rem] flex-wrap gap-1">
                {entries.map(([n, s]) => (
                  <StandardCell key={n} number={n} status={s} />
                ))}
              </div>
            ) : (
              <span className="text-slate-600">No certificate</span>
            );
          },
        },
        { key: 'nmds', header: 'Workforce data set', render: (r) => nmdsLabel(r.nmds), hideOnMobile: true },
      ]}
    />
  );
}

/**
 * /reports/care-certificate (87): each person in scope with their certificate (spec 1 §3's certificates filter,
 * in progress / complete, everyone or only those with one, overdue), each standard's status as a compact cell, and
 * the workforce data set value; or per standard the counts of each status; PDF and XLSX export of the same query.
 */
export default function CareCertificateReportPage() {
  const wl = useWhitelabel();
  const allowed = usePermission([CareCertificatePerm.report]);
  // The filters live in the address (shareable, kept on reload and back).
  const [search, setSearch] = useSearchParams();
  const filters = useMemo(() => filtersFromSearch(search), [search]);
  const setFilters = (next: (f: ReportFilters) => ReportFilters) =>
    setSearch(filtersToSearch(next(filtersFromSearch(search))), { replace: true });
  const set = (patch: Partial<ReportFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));
  const report = useCareCertificateReport(filters);
  const title = named(wl.certificateGroupMenuName, 'report');
  if (!allowed)
    return (
      <div>
        <PageHeader title={title} breadcrumbs={[{ label: 'Reports' }, { label: title }]} />
        <Card>
          <p className="text-sm text-slate-700">You need the report permission to see this report.</p>
        </Card>
      </div>
    );
  const d = report.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description="Who is working towards their certificate, who is waiting for approval, and who is done."
        breadcrumbs={[{ label: 'Reports' }, { label: wl.certificateGroupMenuName }]}
        actions={<ExportButtons filters={filters} />}
      />
      <Card title="Filters">
        <Filters filters={filters} set={set} />
      </Card>
      <Card
        title={filters.view === 'person' ? 'People' : 'Standards'}
        padded={false}
        className="relative overflow-hidden"
        actions={<ViewSwitch view={filters.view} onChange={(view) => set({ view })} />}
      >
        <div className="border-b border-slate-100 px-5 py-3">
          <StatusLegend />
        </div>
        {report.isError ? (
          <p className="px-5 py-6 text-sm text-danger-700" role="alert">
            {(isApiError(report.error) && report.error.data?.message) || ReportMessages.fetchFailed}
          </p>
        ) : !d && report.isPending ? (
          <div className="flex items-center gap-3 px-5 py-6 text-sm text-slate-600" aria-live="polite">
            <Spinner /> Loading the report…
          </div>
        ) : d?.view === 'standard' && filters.view === 'standard' ? (
          <DataTable
            caption="Certificates by standard"
            rows={d.rows}
            loading={report.isFetching && report.isPlaceholderData}
            rowKey={(r) => `${r.version_code}-${r.number}`}
            empty={<EmptyState title="No standards to show" />}
            columns={[
              {
                key: 'standard',
                header: 'Standard',
                render: (r) => (
                  <span className="font-medium">
                    {r.number}. {r.title}
                    <span className="block text-xs font-normal text-slate-600">{r.version_code}</span>
                  </span>
                ),
              },
              { key: 'outstanding', header: 'Outstanding', render: (r) => r.outstanding },
              { key: 'working_towards', header: 'Working towards', render: (r) => r.working_towards },
              { key: 'awaiting_approval', header: 'Awaiting approval', render: (r) => r.awaiting_approval },
              { key: 'approved', header: 'Approved', render: (r) => r.approved },
            ]}
          />
        ) : d?.view === 'person' && filters.view === 'person' ? (
          <>
            <PersonTable rows={d.page.data} loading={report.isFetching && report.isPlaceholderData} />
            <div className="px-4">
              <Pagination meta={d.page.meta} onPageChange={(page) => setFilters((f) => ({ ...f, page }))} />
            </div>
          </>
        ) : (
          <div className="flex items-center gap-3 px-5 py-6 text-sm text-slate-600" aria-live="polite">
            <Spinner /> Loading the report…
          </div>
        )}
      </Card>
    </div>
  );
}

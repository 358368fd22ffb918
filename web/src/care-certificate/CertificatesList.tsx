import {
  CERTIFICATE_STATUSES,
  type CertificateStatus,
  type CertificateSummary,
  formatDate,
} from '@cc/contracts';
import { Link } from 'react-router';
import { useAddressFilters } from '../app/address-filters';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  Button,
  Card,
  CardPagination,
  Checkbox,
  type Column,
  DataTable,
  EmptyState,
  FoldingFilters,
  SearchInput,
  Select,
} from '../ui';
import { type CertificateFilters, useCertificates, useVersions } from './api';
import { CERTIFICATE_STATUS, criteriaText, standardsText } from './labels';
import { Meter } from './StandardsAccordion';

const FILTER_KEYS = ['search', 'status', 'awaiting', 'overdue', 'version'];

/** The list's filters in the address (`?search=&status=in_progress&awaiting=1&overdue=1&version=2&page=3`). */
export function useCertificateFilters() {
  const { params, set, active, clear } = useAddressFilters(FILTER_KEYS);
  const status = params.get('status');
  const query: CertificateFilters = {
    page: Number(params.get('page')) || 1,
    search: params.get('search') || undefined,
    status: (CERTIFICATE_STATUSES as readonly string[]).includes(status ?? '')
      ? (status as CertificateStatus)
      : undefined,
    awaiting_approval: params.get('awaiting') === '1' ? true : undefined,
    overdue: params.get('overdue') === '1' ? true : undefined,
    version_id: Number(params.get('version')) || undefined,
  };
  return {
    query,
    set,
    active,
    clear,
  };
}
type Filters = ReturnType<typeof useCertificateFilters>;

function FiltersBar({ filters }: { filters: Filters }) {
  const { query, set } = filters;
  const versions = useVersions();
  return (
    <div className="border-b border-slate-200">
      <FoldingFilters
        summary={filters.active ? 'Filtered' : 'Everyone'}
        onClear={filters.active ? filters.clear : null}
      >
        <div className="space-y-1.5">
          <span className="block text-sm font-medium text-slate-800">Search</span>
          <SearchInput
            label="Search people"
            placeholder="Name or e-mail"
            value={query.search ?? ''}
            onSearch={(search) => set({ search })}
          />
        </div>
        <Select
          label="Status"
          options={[
            { value: '', label: 'Any status' },
            ...CERTIFICATE_STATUSES.map((s) => ({ value: s, label: CERTIFICATE_STATUS[s].label })),
          ]}
          value={query.status ?? ''}
          onChange={(e) => set({ status: e.target.value })}
        />
        <Select
          label="Version"
          options={[
            { value: '', label: 'Any version' },
            ...(versions.data ?? []).map((v) => ({ value: v.id, label: v.title })),
          ]}
          value={query.version_id ?? ''}
          onChange={(e) => set({ version: e.target.value })}
        />
        <div className="flex flex-col gap-2 sm:pb-1">
          <Checkbox
            label="Awaiting approval"
            checked={query.awaiting_approval === true}
            onChange={(e) => set({ awaiting: e.target.checked ? '1' : null })}
          />
          <Checkbox
            label="Overdue"
            checked={query.overdue === true}
            onChange={(e) => set({ overdue: e.target.checked ? '1' : null })}
          />
        </div>
      </FoldingFilters>
    </div>
  );
}

/** Status as text: complete / in progress, overdue, standards waiting for a decision. */
export function SummaryBadges({ c }: { c: CertificateSummary }) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <Badge tone={CERTIFICATE_STATUS[c.status].tone}>{CERTIFICATE_STATUS[c.status].label}</Badge>
      {c.historical ? <Badge tone="neutral">Completed elsewhere</Badge> : null}
      {c.overdue ? <Badge tone="danger">Overdue</Badge> : null}
      {c.standards_awaiting_approval ? (
        <Badge tone="warning">{c.standards_awaiting_approval} awaiting approval</Badge>
      ) : null}
    </span>
  );
}

/** People's certificates in the caller's scope (GET /care-certificates), filtered and paged. */
export function CertificatesList({ canAssign, onAssign }: { canAssign: boolean; onAssign: () => void }) {
  const wl = useWhitelabel();
  const filters = useCertificateFilters();
  const list = useCertificates(filters.query);
  const columns: Column<CertificateSummary>[] = [
    {
      key: 'person',
      header: 'Person',
      render: (c) => (
        <span className="flex flex-col gap-1">
          <Link
            to={`/care-certificate/${c.uuid}`}
            className="focus-ring rounded font-medium text-primary-800 hover:underline"
          >
            {c.user.name}
          </Link>
          <span className="text-xs text-slate-600">{c.user.entity.name}</span>
          <span className="sm:hidden">
            <SummaryBadges c={c} />
          </span>
        </span>
      ),
    },
    {
      key: 'progress',
      header: 'Progress',
      render: (c) => (
        <span className="flex min-w-40 flex-col gap-1">
          <span className="text-sm">{standardsText(c)}</span>
          {c.historical ? (
            // Completed elsewhere: its record is the evidence, not criteria evidenced here.
            <span className="text-xs text-slate-600">Recorded from another provider</span>
          ) : (
            <>
              <Meter
                done={c.criteria_evidenced}
                total={c.criteria_total}
                label={`${c.user.name}: criteria evidenced`}
              />
              <span className="text-xs text-slate-600">
                {criteriaText(c.criteria_evidenced, c.criteria_total)}
              </span>
            </>
          )}
        </span>
      ),
    },
    { key: 'status', header: 'Status', hideOnMobile: true, render: (c) => <SummaryBadges c={c} /> },
    {
      key: 'dates',
      header: 'Dates',
      hideOnMobile: true,
      render: (c) => (
        <span className="flex flex-col text-xs text-slate-700">
          <span>Started {formatDate(c.started_on)}</span>
          {c.completed_on ? (
            <span>Completed {formatDate(c.completed_on)}</span>
          ) : c.expected_by ? (
            <span className={c.overdue ? 'font-semibold text-danger-700' : undefined}>
              Expected by {formatDate(c.expected_by)}
            </span>
          ) : null}
        </span>
      ),
    },
    { key: 'version', header: 'Version', hideOnMobile: true, render: (c) => c.version.title },
  ];
  return (
    <Card
      title="People"
      padded={false}
      data-testid="certificates-list"
      actions={canAssign ? <Button onClick={onAssign}>Assign</Button> : undefined}
    >
      <FiltersBar filters={filters} />
      {list.isError ? (
        <p role="alert" className="p-4 text-sm text-danger-800">
          {errorEnvelope(list.error, 'The list could not be loaded.').message}
        </p>
      ) : (
        <DataTable
          caption="Certificates"
          columns={columns}
          rows={list.data?.data}
          rowKey={(c) => c.uuid}
          loading={list.isLoading}
          empty={
            <EmptyState
              title={
                filters.active
                  ? 'Nobody matches these filters'
                  : `Nobody has been assigned the ${wl.certificateGroupMenuName} yet`
              }
              description={
                filters.active
                  ? 'Clear the filters to see everyone.'
                  : canAssign
                    ? 'Assign it to a new starter: they then see their progress and what to do next.'
                    : 'People appear here once a manager assigns it to them.'
              }
              action={
                filters.active ? (
                  <Button variant="secondary" size="sm" onClick={filters.clear}>
                    Clear filters
                  </Button>
                ) : canAssign ? (
                  <Button size="sm" onClick={onAssign}>
                    Assign
                  </Button>
                ) : undefined
              }
            />
          }
        />
      )}
      <CardPagination
        meta={list.data?.meta}
        onPageChange={(page) => filters.set({ page: String(page) })}
        label="Certificate pages"
      />
    </Card>
  );
}

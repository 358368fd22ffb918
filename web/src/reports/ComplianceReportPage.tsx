import { type ComplianceEntityRow, compliantSummary, ReportsPerm, TagsPerm } from '@cc/contracts';
import { useMemo, useState } from 'react';
import { usePermission } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { ComplianceFilters, complianceFilterParams, useComplianceFilters } from '../compliance/filters';
import { Button, Card, cx, DataTable, EmptyState, PageHeader, Spinner } from '../ui';
import {
  type ComplianceQuery,
  download,
  exportCompliance,
  requestEmailedReport,
  useComplianceReport,
} from './api';
import { ScoreBar, TrendChart } from './charts';
import { DrillDown, type DrillState } from './DrillDown';
import { ReportMessages } from './messages';
import { TagDrillDown, type TagDrillState } from './TagDrillDown';

type DrillMode = 'entities' | 'tags';

/** "By organisation / By tag": which drill-down the card shows (a pair of toggle buttons, each aria-pressed). */
function DrillModeSwitch({ mode, onChange }: { mode: DrillMode; onChange: (mode: DrillMode) => void }) {
  const option = (value: DrillMode, label: string) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
      className={cx(
        'focus-ring px-3 py-1.5 text-sm font-medium',
        mode === value ? 'bg-primary-700 text-white' : 'bg-white text-slate-700 hover:bg-slate-50',
      )}
    >
      {label}
    </button>
  );
  return (
    <fieldset className="flex overflow-hidden rounded-lg ring-1 ring-slate-300">
      <legend className="sr-only">Drill down by</legend>
      {option('entities', 'By organisation')}
      {option('tags', 'By tag')}
    </fieldset>
  );
}

/** Entities in tree order with their depth (parents before children, siblings by name). */
export function treeOrder(rows: ComplianceEntityRow[]): { row: ComplianceEntityRow; depth: number }[] {
  const ids = new Set(rows.map((r) => r.id));
  const children = new Map<number | null, ComplianceEntityRow[]>();
  for (const r of rows) {
    const parent = r.parent_id !== null && ids.has(r.parent_id) ? r.parent_id : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const out: { row: ComplianceEntityRow; depth: number }[] = [];
  const walk = (parent: number | null, depth: number) => {
    for (const r of (children.get(parent) ?? []).sort((a, b) => a.name.localeCompare(b.name))) {
      out.push({ row: r, depth });
      walk(r.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

export function useComplianceQuery(): ComplianceQuery {
  const { filters } = useComplianceFilters();
  const p = complianceFilterParams(filters);
  return {
    compliance_type: p.compliance_type,
    new_starters_filter: p.new_starters_filter,
    previousMonths: 12,
  };
}

/**
 * Export buttons (16 PDF / 17 XLSX) with spec 2 §8's failure message: the compliance report's files, or another
 * compliance-style report's (`exporter`, e.g. the role report's) over the same query.
 */
export function ExportButtons({
  query,
  exporter = exportCompliance,
  name = 'compliance',
}: {
  query: ComplianceQuery;
  exporter?: (q: ComplianceQuery, format: 'pdf' | 'xlsx') => ReturnType<typeof exportCompliance>;
  name?: string;
}) {
  const canPdf = usePermission([ReportsPerm.compliancePdf]);
  const canXlsx = usePermission([ReportsPerm.complianceExcel]);
  const [busy, setBusy] = useState<'pdf' | 'xlsx' | null>(null);
  const run = async (format: 'pdf' | 'xlsx') => {
    setBusy(format);
    await download(
      () => exporter(query, format),
      `${name}.${format}`,
      ReportMessages.exportFailed,
      () => notifyError(null, ReportMessages.emptyExport),
    );
    setBusy(null);
  };
  return (
    <>
      {canPdf ? (
        <Button variant="secondary" loading={busy === 'pdf'} onClick={() => void run('pdf')}>
          Export PDF
        </Button>
      ) : null}
      {canXlsx ? (
        <Button variant="secondary" loading={busy === 'xlsx'} onClick={() => void run('xlsx')}>
          Export XLSX
        </Button>
      ) : null}
    </>
  );
}

/** spec 2 §4: status 300 means too large; show expected_time and offer to e-mail it. */
export function TooLarge({ expected, query }: { expected: string; query: ComplianceQuery }) {
  const canPdf = usePermission([ReportsPerm.compliancePdf]);
  const canXlsx = usePermission([ReportsPerm.complianceExcel]);
  const [sent, setSent] = useState(false);
  const email = async (format: 'PDF' | 'XLSX') => {
    try {
      notifySuccess(await requestEmailedReport(query, format));
      setSent(true);
    } catch {
      notifyError(null, ReportMessages.emailFailed);
    }
  };
  return (
    <Card title="Large report" data-testid="too-large">
      <p className="text-sm text-slate-800">{ReportMessages.tooLarge(expected)}</p>
      {sent ? (
        <p className="mt-3 text-sm text-slate-700" role="status">
          {ReportMessages.emailQueued}
        </p>
      ) : canPdf || canXlsx ? (
        <div className="mt-4 flex flex-wrap gap-2">
          {canXlsx ? <Button onClick={() => void email('XLSX')}>E-mail it to me (XLSX)</Button> : null}
          {canPdf ? (
            <Button variant="secondary" onClick={() => void email('PDF')}>
              E-mail it to me (PDF)
            </Button>
          ) : null}
        </div>
      ) : null}
    </Card>
  );
}

const figure = (label: string, value: number) => (
  <div className="rounded-lg bg-slate-50 px-3 py-2">
    <dt className="text-xs text-slate-600">{label}</dt>
    <dd className="text-lg font-semibold tabular-nums text-slate-900">{value}</dd>
  </div>
);

/**
 * /reports/compliance (13): the current figures of each organisation in scope (summed up the tree) with score bars
 * in band colours, the 12-month trend, per-course figures, drill-down and PDF/XLSX export.
 */
export default function ComplianceReportPage() {
  const query = useComplianceQuery();
  const report = useComplianceReport(query);
  const [drill, setDrill] = useState<DrillState>({ path: [], roles: false, role: null });
  const canDrillTags = usePermission([TagsPerm.use]);
  const [drillMode, setDrillMode] = useState<DrillMode>('entities');
  const [tagDrill, setTagDrill] = useState<TagDrillState>({ tag: null });
  const data = report.data?.kind === 'report' ? report.data.report : null;
  const rows = useMemo(() => (data ? treeOrder(data.entities) : []), [data]);
  const root = rows[0]?.row;
  const drillParams = {
    compliance_type: query.compliance_type,
    new_starters_filter: query.new_starters_filter,
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Compliance report"
        description="Who is in date for their required courses, by organisation and course."
        breadcrumbs={[{ label: 'Reports' }, { label: 'Compliance' }]}
        actions={<ExportButtons query={query} />}
      />
      <Card>
        <ComplianceFilters show={['newStarters', 'complianceType']} />
      </Card>

      {report.isError ? (
        <Card>
          <p className="text-sm text-danger-700" role="alert">
            {(report.error as { data?: { message?: string } } | null)?.data?.message ??
              ReportMessages.fetchFailed}
          </p>
        </Card>
      ) : report.isPending ? (
        <Card>
          <div className="flex items-center gap-3 text-sm text-slate-600" aria-live="polite">
            <Spinner /> Loading the report…
          </div>
        </Card>
      ) : report.data?.kind === 'too_large' ? (
        <TooLarge expected={report.data.info.expected_time} query={query} />
      ) : data && data.totals.required === 0 ? (
        <Card>
          <EmptyState
            title="Nothing is required yet"
            description="No one in these organisations holds a role with required courses for this compliance type."
          />
        </Card>
      ) : data ? (
        <>
          <div className="grid gap-6 lg:grid-cols-3">
            <Card title="Overall" data-testid="overall">
              <ScoreBar score={data.totals.score} label="Overall score" />
              <p className="mt-3 text-sm text-slate-800" data-testid="compliant-summary">
                <span className="font-semibold">Compliant {compliantSummary(data.totals).compliant}</span> of{' '}
                {data.totals.required} required courses ({compliantSummary(data.totals).breakdown}).
              </p>
              <dl className="mt-4 grid grid-cols-2 gap-2">
                {figure('Staff', data.totals.users)}
                {figure('Required', data.totals.required)}
                {figure('Compliant', compliantSummary(data.totals).compliant)}
                {figure('In date (not expiring)', data.totals.in_date)}
                {figure('Expiring soon', data.totals.expiring)}
                {figure('Expired', data.totals.expired)}
                {figure('Missing', data.totals.missing)}
                {figure('Exempt', data.totals.exempt)}
              </dl>
            </Card>
            <Card title="Last 12 months" className="lg:col-span-2" data-testid="trend">
              <TrendChart months={data.months} />
            </Card>
          </div>

          {/* relative + overflow-hidden: the table's sr-only "Actions" header must not widen the page at 375 px. */}
          <Card title="Organisations" padded={false} className="relative overflow-hidden">
            <DataTable
              caption="Compliance by organisation"
              rows={rows}
              rowKey={(r) => r.row.id}
              columns={[
                {
                  key: 'name',
                  header: 'Organisation',
                  render: ({ row, depth }) => (
                    <span className="font-medium" style={{ paddingLeft: `${depth * 1.25}rem` }}>
                      {row.name}
                    </span>
                  ),
                },
                { key: 'users', header: 'Staff', render: ({ row }) => row.users, hideOnMobile: true },
                {
                  key: 'required',
                  header: 'Required',
                  render: ({ row }) => row.required,
                  hideOnMobile: true,
                },
                {
                  key: 'expiring',
                  header: 'Expiring',
                  render: ({ row }) => row.expiring,
                  hideOnMobile: true,
                },
                { key: 'expired', header: 'Expired', render: ({ row }) => row.expired, hideOnMobile: true },
                { key: 'missing', header: 'Missing', render: ({ row }) => row.missing, hideOnMobile: true },
                { key: 'exempt', header: 'Exempt', render: ({ row }) => row.exempt, hideOnMobile: true },
                {
                  key: 'score',
                  header: 'Score',
                  render: ({ row }) => <ScoreBar score={row.score} label={row.name} />,
                },
              ]}
              rowActions={({ row }) => (
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setDrillMode('entities');
                    setDrill({
                      path: root && row.id !== root.id ? [{ id: row.id, name: row.name }] : [],
                      roles: false,
                      role: null,
                    });
                    document.getElementById('drill-down')?.scrollIntoView({ behavior: 'smooth' });
                  }}
                >
                  Drill down <span className="sr-only">into {row.name}</span>
                </Button>
              )}
            />
          </Card>

          {root ? (
            <div id="drill-down">
              {canDrillTags && drillMode === 'tags' ? (
                <TagDrillDown
                  root={{ id: root.id, name: root.name }}
                  state={tagDrill}
                  onChange={setTagDrill}
                  params={drillParams}
                  actions={<DrillModeSwitch mode={drillMode} onChange={setDrillMode} />}
                />
              ) : (
                <DrillDown
                  root={{ id: root.id, name: root.name }}
                  state={drill}
                  onChange={setDrill}
                  params={drillParams}
                  actions={
                    canDrillTags ? <DrillModeSwitch mode={drillMode} onChange={setDrillMode} /> : undefined
                  }
                />
              )}
            </div>
          ) : null}

          <Card title="Courses" padded={false}>
            <DataTable
              caption="Compliance by course"
              rows={data.courses}
              rowKey={(c) => c.id}
              empty={<EmptyState title="No required courses" />}
              columns={[
                {
                  key: 'title',
                  header: 'Course',
                  render: (c) => <span className="font-medium">{c.title}</span>,
                },
                { key: 'users', header: 'Staff', render: (c) => c.users, hideOnMobile: true },
                { key: 'expired', header: 'Expired', render: (c) => c.expired, hideOnMobile: true },
                { key: 'missing', header: 'Missing', render: (c) => c.missing, hideOnMobile: true },
                { key: 'exempt', header: 'Exempt', render: (c) => c.exempt, hideOnMobile: true },
                {
                  key: 'score',
                  header: 'Score',
                  render: (c) => <ScoreBar score={c.score} label={c.title} />,
                },
              ]}
            />
          </Card>
        </>
      ) : null}
    </div>
  );
}

import type { ComplianceTally } from '@cc/contracts';
import { useMemo } from 'react';
import { ComplianceFilters } from '../compliance/filters';
import { Card, PageHeader, Spinner } from '../ui';
import { useComplianceReport } from './api';
import { ExportButtons, TooLarge, treeOrder, useComplianceQuery } from './ComplianceReportPage';
import { ReportMessages } from './messages';

/**
 * /reports/compliance-legacy: the same figures as /reports/compliance in the older, simpler layout — one plain table
 * of organisations and one of courses, percentages as text, no chart or drill-down.
 */
export default function ComplianceLegacyPage() {
  const query = useComplianceQuery();
  const report = useComplianceReport(query);
  const data = report.data?.kind === 'report' ? report.data.report : null;
  const rows = useMemo(() => (data ? treeOrder(data.entities) : []), [data]);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Compliance (legacy)"
        breadcrumbs={[{ label: 'Reports' }, { label: 'Compliance (legacy)' }]}
        actions={<ExportButtons query={query} />}
      />
      <Card>
        <ComplianceFilters show={['newStarters', 'complianceType']} />
      </Card>
      {report.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          {ReportMessages.fetchFailed}
        </p>
      ) : report.isPending ? (
        <div className="flex items-center gap-3 text-sm text-slate-600">
          <Spinner /> Loading…
        </div>
      ) : report.data?.kind === 'too_large' ? (
        <TooLarge expected={report.data.info.expected_time} query={query} />
      ) : data ? (
        <section
          className="focus-ring space-y-6 overflow-x-auto bg-white p-4 text-sm"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe)
          tabIndex={0}
          aria-label="Compliance tables"
        >
          <TallyTable
            caption="Organisations"
            first="Organisation"
            rows={rows.map(({ row, depth }) => ({
              key: row.id,
              label: `${'— '.repeat(depth)}${row.name}`,
              tally: row,
            }))}
          />
          <TallyTable
            caption="Courses"
            first="Course"
            rows={data.courses.map((c) => ({ key: c.id, label: c.title, tally: c }))}
            empty="No required courses."
          />
        </section>
      ) : null}
    </div>
  );
}

type Tally = ComplianceTally & { score: number };

const cell = 'border border-slate-300 px-2 py-1';

/** One plain table of compliance figures: a row per organisation or course, percentages as text. */
function TallyTable({
  caption,
  first,
  rows,
  empty,
}: {
  caption: string;
  first: string;
  rows: { key: number; label: string; tally: Tally }[];
  empty?: string;
}) {
  return (
    <table className="min-w-full border-collapse">
      <caption className="mb-2 text-left font-semibold">{caption}</caption>
      <thead>
        <tr className="bg-slate-100">
          {[first, 'Staff', 'Required', 'In date', 'Expiring', 'Expired', 'Missing', 'Exempt', '%'].map(
            (h) => (
              <th key={h} scope="col" className={`${cell} text-left`}>
                {h}
              </th>
            ),
          )}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && empty ? (
          <tr>
            <td className={cell} colSpan={9}>
              {empty}
            </td>
          </tr>
        ) : (
          rows.map(({ key, label, tally: t }) => (
            <tr key={key}>
              <th scope="row" className={`${cell} text-left font-normal`}>
                {label}
              </th>
              <td className={cell}>{t.users}</td>
              <td className={cell}>{t.required}</td>
              <td className={cell}>{t.in_date}</td>
              <td className={cell}>{t.expiring}</td>
              <td className={cell}>{t.expired}</td>
              <td className={cell}>{t.missing}</td>
              <td className={cell}>{t.exempt}</td>
              <td className={`${cell} font-semibold`}>{t.score}%</td>
            </tr>
          ))
        )}
      </tbody>
    </table>
  );
}

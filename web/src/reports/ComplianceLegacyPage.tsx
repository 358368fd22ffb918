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
  const cell = 'border border-slate-300 px-2 py-1';
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
          <table className="min-w-full border-collapse">
            <caption className="mb-2 text-left font-semibold">Organisations</caption>
            <thead>
              <tr className="bg-slate-100">
                {['Organisation', 'Staff', 'Required', 'In date', 'Expiring', 'Expired', 'Missing', '%'].map(
                  (h) => (
                    <th key={h} scope="col" className={`${cell} text-left`}>
                      {h}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {rows.map(({ row, depth }) => (
                <tr key={row.id}>
                  <th scope="row" className={`${cell} text-left font-normal`}>
                    {'— '.repeat(depth)}
                    {row.name}
                  </th>
                  <td className={cell}>{row.users}</td>
                  <td className={cell}>{row.required}</td>
                  <td className={cell}>{row.in_date}</td>
                  <td className={cell}>{row.expiring}</td>
                  <td className={cell}>{row.expired}</td>
                  <td className={cell}>{row.missing}</td>
                  <td className={`${cell} font-semibold`}>{row.score}%</td>
                </tr>
              ))}
            </tbody>
          </table>
          <table className="min-w-full border-collapse">
            <caption className="mb-2 text-left font-semibold">Courses</caption>
            <thead>
              <tr className="bg-slate-100">
                {['Course', 'Staff', 'Required', 'In date', 'Expiring', 'Expired', 'Missing', '%'].map(
                  (h) => (
                    <th key={h} scope="col" className={`${cell} text-left`}>
                      {h}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {data.courses.length === 0 ? (
                <tr>
                  <td className={cell} colSpan={8}>
                    No required courses.
                  </td>
                </tr>
              ) : (
                data.courses.map((c) => (
                  <tr key={c.id}>
                    <th scope="row" className={`${cell} text-left font-normal`}>
                      {c.title}
                    </th>
                    <td className={cell}>{c.users}</td>
                    <td className={cell}>{c.required}</td>
                    <td className={cell}>{c.in_date}</td>
                    <td className={cell}>{c.expiring}</td>
                    <td className={cell}>{c.expired}</td>
                    <td className={cell}>{c.missing}</td>
                    <td className={`${cell} font-semibold`}>{c.score}%</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </section>
      ) : null}
    </div>
  );
}

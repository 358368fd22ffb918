import { formatDate, PRESET_COURSE_TYPES, ReportsPerm } from '@cc/contracts';
import { useState } from 'react';
import { usePermission } from '../app/auth';
import { notifyInfo } from '../app/notifications';
import {
  Button,
  Card,
  Checkbox,
  DataTable,
  EmptyState,
  PageHeader,
  Pagination,
  Select,
  TextField,
} from '../ui';
import {
  type CertificateQuery,
  download,
  downloadCertificates,
  exportCertificates,
  useCertificateReport,
} from './api';
import { ReportMessages } from './messages';

const dmy = (iso: string | null) => formatDate(iso, undefined, 'Never');

/**
 * /reports/certificate (7): certificates (passed results) in scope, filtered by the preset fields (period or
 * dates, completion or expiry, course type, new starters); select rows to download their certificates as one zip
 * (POST /results/certificate/download-multiple), or export the whole list.
 */
export default function CertificateReportPage() {
  const [query, setQuery] = useState<CertificateQuery>({
    period: 'last_month',
    filter_by: 'completed',
    new_starters_filter: 'include_new_starters',
    from_date: null,
    to_date: null,
    course_type: null,
  });
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [busy, setBusy] = useState<string | null>(null);
  const report = useCertificateReport(query, page);
  const canExport = usePermission([ReportsPerm.userCertificates]);
  const set = (patch: Partial<CertificateQuery>) => {
    setQuery((q) => ({ ...q, ...patch }));
    setPage(1);
    setSelected(new Set());
  };
  const rows = report.data?.data ?? [];
  const allOnPage = rows.length > 0 && rows.every((r) => selected.has(r.result_id));
  const toggle = (id: number) =>
    setSelected((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const zip = async () => {
    setBusy('zip');
    await download(
      () => downloadCertificates([...selected]),
      'certificates.zip',
      ReportMessages.certificatesFailed,
      () => notifyInfo(ReportMessages.emptyExport),
    );
    setBusy(null);
  };
  const exportAs = async (format: 'PDF' | 'XLSX') => {
    setBusy(format);
    await download(
      () => exportCertificates(query, format),
      `certificate.${format.toLowerCase()}`,
      ReportMessages.exportFailed,
    );
    setBusy(null);
  };

  return (
    <div className="space-y-6">
      <PageHeader
        title="Certificate report"
        description="Certificates earned by your staff."
        breadcrumbs={[{ label: 'Reports' }, { label: 'Certificates' }]}
        actions={
          canExport ? (
            <>
              <Button variant="secondary" loading={busy === 'PDF'} onClick={() => void exportAs('PDF')}>
                Export PDF
              </Button>
              <Button variant="secondary" loading={busy === 'XLSX'} onClick={() => void exportAs('XLSX')}>
                Export XLSX
              </Button>
            </>
          ) : null
        }
      />
      <Card>
        <fieldset className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" aria-label="Filters">
          <Select
            label="Period"
            value={query.period}
            disabled={Boolean(query.from_date || query.to_date)}
            options={[
              { value: 'today', label: 'Today' },
              { value: 'last_week', label: 'Last week' },
              { value: 'last_month', label: 'Last month' },
            ]}
            onChange={(e) => set({ period: e.target.value as CertificateQuery['period'] })}
          />
          <TextField
            label="From"
            type="date"
            value={query.from_date ?? ''}
            onChange={(e) => set({ from_date: e.target.value || null })}
          />
          <TextField
            label="To"
            type="date"
            value={query.to_date ?? ''}
            onChange={(e) => set({ to_date: e.target.value || null })}
          />
          <Select
            label="Dates by"
            value={query.filter_by}
            options={[
              { value: 'completed', label: 'Completion' },
              { value: 'expires', label: 'Expiry' },
            ]}
            onChange={(e) => set({ filter_by: e.target.value as CertificateQuery['filter_by'] })}
          />
          <Select
            label="Type"
            value={query.course_type ?? ''}
            placeholder="All types"
            options={PRESET_COURSE_TYPES.map((t) => ({ value: t, label: t }))}
            onChange={(e) => set({ course_type: e.target.value || null })}
          />
        </fieldset>
      </Card>
      <Card
        padded={false}
        className="relative overflow-hidden"
        title={report.data ? `${report.data.meta.total} certificates` : 'Certificates'}
        actions={
          <Button disabled={selected.size === 0} loading={busy === 'zip'} onClick={() => void zip()}>
            Download selected ({selected.size})
          </Button>
        }
      >
        {report.isError ? (
          <p className="p-5 text-sm text-danger-700" role="alert">
            {ReportMessages.fetchFailed}
          </p>
        ) : (
          <>
            <DataTable
              caption="Certificates"
              loading={report.isPending}
              rows={rows}
              rowKey={(r) => r.result_id}
              empty={
                <EmptyState title="No certificates" description="No certificate matches these filters." />
              }
              columns={[
                {
                  key: 'select',
                  header: (
                    <Checkbox
                      label={<span className="sr-only">Select all on this page</span>}
                      checked={allOnPage}
                      onChange={() =>
                        setSelected((s) => {
                          const next = new Set(s);
                          for (const r of rows) allOnPage ? next.delete(r.result_id) : next.add(r.result_id);
                          return next;
                        })
                      }
                    />
                  ),
                  render: (r) => (
                    <Checkbox
                      label={
                        <span className="sr-only">
                          Select {r.course.title} for {r.user.name}
                        </span>
                      }
                      checked={selected.has(r.result_id)}
                      onChange={() => toggle(r.result_id)}
                    />
                  ),
                },
                {
                  key: 'user',
                  header: 'Learner',
                  render: (r) => (
                    <div>
                      <div className="font-medium">{r.user.name}</div>
                      <div className="text-xs text-slate-600">{r.entity.name}</div>
                    </div>
                  ),
                },
                { key: 'course', header: 'Course', render: (r) => r.course.title },
                { key: 'grade', header: 'Grade', render: (r) => r.grade, hideOnMobile: true },
                {
                  key: 'completed',
                  header: 'Completed',
                  render: (r) => dmy(r.completed_at),
                  hideOnMobile: true,
                },
                { key: 'expires', header: 'Expires', render: (r) => dmy(r.expires_at), hideOnMobile: true },
              ]}
            />
            {report.data ? (
              <Pagination meta={report.data.meta} onPageChange={setPage} label="Certificate pages" />
            ) : null}
          </>
        )}
      </Card>
    </div>
  );
}

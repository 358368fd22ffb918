import { ComplianceFilters } from '../compliance/filters';
import { Card, DataTable, EmptyState, PageHeader } from '../ui';
import { exportRoles, useRoleReport } from './api';
import { ExportButtons, useComplianceQuery } from './ComplianceReportPage';
import { ScoreBar } from './charts';
import { ReportMessages } from './messages';

/** /reports/role (13): each job role with its staff and their compliance (POST /reports/role). */
export default function RoleReportPage() {
  const query = useComplianceQuery();
  const report = useRoleReport(query);
  return (
    <div className="space-y-6">
      <PageHeader
        title="Role report"
        description="Compliance of each job role across your organisations."
        breadcrumbs={[{ label: 'Reports' }, { label: 'Roles' }]}
        actions={
          <div className="flex flex-wrap gap-2">
            <ExportButtons query={query} exporter={exportRoles} name="roles" />
          </div>
        }
      />
      <Card>
        <ComplianceFilters show={['newStarters', 'complianceType']} />
      </Card>
      <Card padded={false}>
        {report.isError ? (
          <p className="p-5 text-sm text-danger-700" role="alert">
            {ReportMessages.fetchFailed}
          </p>
        ) : (
          <DataTable
            caption="Compliance by role"
            loading={report.isPending}
            rows={report.data}
            rowKey={(r) => r.id}
            empty={
              <EmptyState
                title="No roles with requirements"
                description="Give roles required courses to see them here."
              />
            }
            columns={[
              { key: 'name', header: 'Role', render: (r) => <span className="font-medium">{r.name}</span> },
              { key: 'users', header: 'Staff', render: (r) => r.users, hideOnMobile: true },
              { key: 'required', header: 'Required', render: (r) => r.required, hideOnMobile: true },
              { key: 'expiring', header: 'Expiring', render: (r) => r.expiring, hideOnMobile: true },
              { key: 'expired', header: 'Expired', render: (r) => r.expired, hideOnMobile: true },
              { key: 'missing', header: 'Missing', render: (r) => r.missing, hideOnMobile: true },
              { key: 'exempt', header: 'Exempt', render: (r) => r.exempt, hideOnMobile: true },
              { key: 'score', header: 'Score', render: (r) => <ScoreBar score={r.score} label={r.name} /> },
            ]}
          />
        )}
      </Card>
    </div>
  );
}

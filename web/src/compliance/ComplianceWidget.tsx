import { ComplianceMessages, CompliancePerm, compliantSummary, type ScoreType } from '@cc/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { usePermission } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import { Card, Select, Spinner } from '../ui';
import { useEntityScore } from './api';

const BAND_LABEL = { green: 'Good', amber: 'Needs attention', red: 'Poor' } as const;
/** The manager dashboard permission (spec 2 permission ids: 105). */
const MANAGER_DASHBOARD = 105;

/**
 * The entity compliance widget (permission 40; spec 1 §4 score request, spec 2 §9 bands): the score of the entity
 * (with its descendants), polled every 5 s while the server answers 202, shown in its band's traffic-light colour.
 */
export function ComplianceWidget({ entity, entityName }: { entity: string | number; entityName: string }) {
  const allowed = usePermission([CompliancePerm.complianceWidget]);
  const wl = useWhitelabel();
  const [type, setType] = useState<ScoreType>('primary');
  const score = useEntityScore(entity, type, { deep: true, enabled: allowed });
  const managerDashboard = usePermission([MANAGER_DASHBOARD]);
  const complianceReport = usePermission([CompliancePerm.complianceReport]);
  // The score leads to the names behind it: the manager dashboard (105), else the compliance report (13).
  const target = managerDashboard
    ? { to: '/manager-dashboard', label: 'the manager dashboard' }
    : complianceReport
      ? { to: '/reports/compliance', label: 'the compliance report' }
      : null;
  if (!allowed) return null;
  const data = score.data?.status === 'ready' ? score.data.score : null;
  return (
    <Card
      title="Compliance"
      data-testid="compliance-widget"
      actions={
        <div className="w-44">
          <Select
            label="Compliance type"
            hideLabel
            value={type}
            options={[
              { value: 'primary', label: wl.primaryComplianceAltName },
              { value: 'secondary', label: wl.secondaryComplianceAltName },
              { value: 'all', label: 'All courses' },
            ]}
            onChange={(e) => setType(e.target.value as ScoreType)}
          />
        </div>
      }
    >
      {score.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          {ComplianceMessages.failedToFetchScore}
        </p>
      ) : !data ? (
        <div className="flex items-center gap-3 text-sm text-slate-600" aria-live="polite">
          <Spinner /> Calculating the score of {entityName}…
        </div>
      ) : (
        <div className="flex flex-col gap-4 sm:flex-row sm:items-center" aria-live="polite">
          {target ? (
            <Link
              to={target.to}
              className="focus-ring flex h-24 w-24 shrink-0 items-center justify-center rounded-full border-8 text-2xl font-bold text-slate-900 hover:bg-slate-50"
              style={{ borderColor: data.colour }}
              data-testid="compliance-score"
              data-band={data.band}
              aria-label={`Score ${data.score}%: open ${target.label}`}
              title={`Open ${target.label}`}
            >
              {data.score}%
            </Link>
          ) : (
            <div
              className="flex h-24 w-24 shrink-0 items-center justify-center rounded-full border-8 text-2xl font-bold text-slate-900"
              style={{ borderColor: data.colour }}
              data-testid="compliance-score"
              data-band={data.band}
            >
              {data.score}%
            </div>
          )}
          <div className="space-y-1 text-sm text-slate-700">
            <p className="font-medium text-slate-900">
              {entityName}: {BAND_LABEL[data.band]}
            </p>
            <p data-testid="compliant-summary">
              Compliant {compliantSummary(data).compliant} of {data.required} required courses across{' '}
              {data.users} {data.users === 1 ? 'person' : 'people'} ({compliantSummary(data).breakdown}).
            </p>
            <p className="text-slate-600">
              Not compliant: {data.expired} expired, {data.missing} not done.
            </p>
            {target ? (
              <p>
                <Link className="focus-ring rounded font-medium text-primary-800 underline" to={target.to}>
                  See who is out of date
                </Link>
              </p>
            ) : null}
          </div>
        </div>
      )}
    </Card>
  );
}

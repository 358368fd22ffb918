import { CARE_CERTIFICATE_VIEW_PERMS, type CertificateSummary, formatDate } from '@cc/contracts';
import { Link } from 'react-router';
import { isApiError } from '../../app/api';
import { useAuth, usePermission } from '../../app/auth';
import { useWhitelabel } from '../../app/whitelabel';
import { Card, Spinner } from '../../ui';
import { useTeamCareCertificate } from './api';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

function People({
  people,
  empty,
  when,
}: {
  people: CertificateSummary[];
  empty: string;
  when: (c: CertificateSummary) => string;
}) {
  if (!people.length) return <p className="mt-1 text-sm text-slate-600">{empty}</p>;
  return (
    <ul className="mt-2 divide-y divide-slate-100">
      {people.map((c) => (
        <li key={c.uuid} className="flex flex-wrap items-baseline justify-between gap-x-3 py-1.5 text-sm">
          <Link to={`/care-certificate/${c.uuid}`} className={linkClass}>
            {c.user.name}
          </Link>
          <span className="text-xs text-slate-600">{when(c)}</span>
        </li>
      ))}
    </ul>
  );
}

/**
 * The manager dashboard's certificate card (GET /dashboard/care-certificate/team): how many people in scope are
 * working towards it, awaiting approval, overdue against the organisation's expected time, and complete; the most
 * urgent overdue and waiting people link to their certificates. Shown to holders of a view permission.
 */
export function ManagerCareCertificateWidget() {
  const wl = useWhitelabel();
  const { user } = useAuth();
  const perm = usePermission([...CARE_CERTIFICATE_VIEW_PERMS], 'any');
  const allowed = Boolean(user) && (perm || Boolean(user?.super_admin));
  const q = useTeamCareCertificate(allowed);
  if (!allowed) return null;
  const d = q.data;
  const figure = (label: string, value: number, tone?: string) => (
    <div className="rounded-lg bg-slate-50 px-3 py-2">
      <dt className="text-xs text-slate-600">{label}</dt>
      <dd className={`text-lg font-semibold tabular-nums ${tone ?? 'text-slate-900'}`}>{value}</dd>
    </div>
  );
  return (
    <Card
      title={wl.certificateGroupMenuName}
      data-testid="care-certificate-team-widget"
      actions={
        <Link to="/care-certificate" className={linkClass}>
          All certificates
        </Link>
      }
    >
      {q.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          {(isApiError(q.error) && q.error.data?.message) ||
            'The certificate figures could not be loaded. Please reload the page.'}
        </p>
      ) : !d ? (
        <Spinner label="Loading the certificate figures" />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4">
            {figure('Working towards', d.working_towards)}
            {figure('Awaiting approval', d.awaiting_approval)}
            {figure('Overdue', d.overdue, d.overdue ? 'text-danger-700' : undefined)}
            {figure('Complete', d.complete)}
          </dl>
          <div className="mt-4 grid grid-cols-1 gap-6 lg:grid-cols-2">
            <section aria-labelledby="cc-overdue-title" className="min-w-0">
              <h3 id="cc-overdue-title" className="text-sm font-semibold text-slate-900">
                Overdue
              </h3>
              <People
                people={d.overdue_people}
                empty="No one is overdue."
                when={(c) => (c.expected_by ? `Expected by ${formatDate(c.expected_by)}` : '')}
              />
            </section>
            <section aria-labelledby="cc-awaiting-title" className="min-w-0">
              <h3 id="cc-awaiting-title" className="text-sm font-semibold text-slate-900">
                Awaiting approval
              </h3>
              <People
                people={d.awaiting_people}
                empty="Nothing is waiting for approval."
                when={(c) =>
                  `${c.standards_awaiting_approval} ${c.standards_awaiting_approval === 1 ? 'standard' : 'standards'}`
                }
              />
            </section>
          </div>
        </>
      )}
    </Card>
  );
}

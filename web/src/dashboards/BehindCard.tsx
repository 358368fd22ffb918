import { BEHIND_KIND_LABELS, BEHIND_KINDS, type BehindFilter } from '@cc/contracts';
import { Link } from 'react-router';
import { Card, Spinner } from '../ui';
import { useBehindSummary } from './ManagerDashboardApi';
import { plural } from './ManagerDashboardParts';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/** The manager dashboard's card: people behind per kind, each a link to its list on the page above. */
export function BehindCard({ entity }: { entity: { id: number; name: string } }) {
  const summary = useBehindSummary(String(entity.id));
  const s = summary.data;
  const to = (kind?: BehindFilter) =>
    `/manager-dashboard/behind?entity=${entity.id}${kind && kind !== 'all' ? `&kind=${kind}` : ''}`;
  return (
    <Card
      title="Who is behind"
      data-testid="dashboard-behind"
      actions={
        <Link to={to()} className={linkClass}>
          See who is behind
        </Link>
      }
    >
      {summary.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          The list of who is behind could not be loaded.
        </p>
      ) : !s ? (
        <Spinner className="text-slate-500" />
      ) : (
        <div className="space-y-3">
          <p className="text-sm text-slate-700">
            {s.people === 0
              ? `No one at ${s.entity.name} is behind on the Care Certificate, pathways or documents to read.`
              : `${plural(s.people, 'person', 'people')} at ${s.entity.name} behind on the Care Certificate, pathways or documents to read.`}
          </p>
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-3">
            {BEHIND_KINDS.filter((k) => s.counts[k] !== null).map((k) => (
              <li key={k}>
                <Link
                  to={to(k)}
                  className="focus-ring block rounded-lg p-3 ring-1 ring-slate-200 hover:ring-primary-400"
                >
                  <span className="block text-sm text-slate-700">{BEHIND_KIND_LABELS[k]}</span>
                  <span className="block text-xl font-semibold tabular-nums text-slate-900">
                    {plural(s.counts[k] ?? 0, 'person', 'people')}
                  </span>
                </Link>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Card>
  );
}

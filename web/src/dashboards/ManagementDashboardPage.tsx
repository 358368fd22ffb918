import type {
  ManagementCourseRow,
  ManagementDashboard,
  ManagementEntityRow,
  ManagementForecastRow,
} from '@cc/contracts';
import { Link, useMatches } from 'react-router';
import { useWhitelabel } from '../app/whitelabel';
import { ScoreBar, TrendChart } from '../reports/charts';
import { Card, DataTable, EmptyState, PageHeader } from '../ui';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import { type DashboardType, useManagementDashboard } from './ManagerDashboardApi';
import {
  ChangeText,
  DashboardError,
  DashboardLoading,
  DashboardScope,
  TrendText,
  useDashboardParams,
  useTypeLabel,
} from './ManagerDashboardParts';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

const monthName = (month: string, style: 'long' | 'short' = 'long') =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-GB', {
    month: style,
    year: 'numeric',
    timeZone: 'UTC',
  });

/** Expiries per month as horizontal bars (readable at 375 px), each with its number in words beside it. */
function ForecastChart({ rows }: { rows: ManagementForecastRow[] }) {
  const max = Math.max(1, ...rows.map((r) => r.expiries));
  const total = rows.reduce((n, r) => n + r.expiries, 0);
  if (total === 0)
    return <p className="text-sm text-slate-600">Nothing in date expires in the next 12 months.</p>;
  return (
    <table className="w-full text-sm">
      <caption className="sr-only">Required courses expiring each month for the next 12 months</caption>
      <thead className="sr-only">
        <tr>
          <th scope="col">Month</th>
          <th scope="col">Expiring</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.month}>
            <th scope="row" className="w-24 py-1 pr-3 text-left font-normal whitespace-nowrap text-slate-700">
              {monthName(r.month, 'short')}
            </th>
            <td className="py-1">
              <div className="flex items-center gap-2">
                <div className="h-3 flex-1 overflow-hidden rounded bg-slate-100" aria-hidden="true">
                  <div
                    className="h-full rounded bg-primary-600"
                    style={{ width: `${(r.expiries / max) * 100}%` }}
                  />
                </div>
                <span className="w-28 text-right text-slate-800 tabular-nums">
                  {r.expiries} {r.expiries === 1 ? 'course' : 'courses'}
                  <span className="sr-only">
                    {' '}
                    for {r.people} {r.people === 1 ? 'person' : 'people'}
                  </span>
                </span>
              </div>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function RankedEntities({ d }: { d: ManagementDashboard }) {
  const wl = useWhitelabel();
  const alt = organisationWord(wl);
  const columns = [
    { key: 'rank', header: '#', render: (r: ManagementEntityRow) => r.rank, hideOnMobile: true },
    {
      key: 'name',
      header: alt,
      render: (r: ManagementEntityRow) => (
        <span className="block">
          <Link to={`/manager-dashboard?entity=${r.id}`} className={linkClass}>
            {r.name}
          </Link>
          {r.previous && r.change !== null ? (
            <ChangeText
              change={r.change}
              since={monthName(r.previous.month, 'short')}
              className="block text-xs text-slate-600 sm:hidden"
            />
          ) : null}
        </span>
      ),
    },
    {
      key: 'score',
      header: 'Score',
      render: (r: ManagementEntityRow) => <ScoreBar score={r.score} label={r.name} />,
    },
    {
      key: 'change',
      header: 'Trend',
      render: (r: ManagementEntityRow) =>
        r.previous && r.change !== null ? (
          <ChangeText change={r.change} since={monthName(r.previous.month, 'short')} className="text-sm" />
        ) : (
          <span className="text-sm text-slate-500">No earlier figures</span>
        ),
      hideOnMobile: true,
    },
    {
      key: 'gaps',
      header: 'Out of date',
      render: (r: ManagementEntityRow) => `${r.expired + r.missing} of ${r.required}`,
      hideOnMobile: true,
    },
    { key: 'users', header: 'People', render: (r: ManagementEntityRow) => r.users, hideOnMobile: true },
  ];
  return (
    <DataTable
      caption={`${organisationsWord(wl)} of ${d.entity.name}, lowest score first`}
      rows={d.entities}
      rowKey={(r) => r.id}
      columns={columns}
      empty={
        <EmptyState
          title={`No ${organisationsWord(wl).toLowerCase()} below ${d.entity.name}`}
          description={
            <Link to={`/manager-dashboard?entity=${d.entity.id}`} className={linkClass}>
              Open the manager dashboard of {d.entity.name}
            </Link>
          }
        />
      }
    />
  );
}

function WorstCourses({ rows }: { rows: ManagementCourseRow[] }) {
  return (
    <DataTable
      caption="Courses with the lowest in-date share"
      rows={rows}
      rowKey={(r) => r.id}
      empty={<EmptyState title="No required courses" description="No job role has required courses yet." />}
      columns={[
        { key: 'title', header: 'Course', render: (r) => <span className="font-medium">{r.title}</span> },
        {
          key: 'score',
          header: 'In date',
          render: (r) => <ScoreBar score={r.score} label={`${r.title} in date`} />,
        },
        {
          key: 'gaps',
          header: 'Expired / never done',
          render: (r) => `${r.expired} / ${r.missing}`,
          hideOnMobile: true,
        },
        { key: 'required', header: 'Required', render: (r) => r.required, hideOnMobile: true },
      ]}
    />
  );
}

function Dashboard({ d, type }: { d: ManagementDashboard; type: DashboardType }) {
  const wl = useWhitelabel();
  const typeLabel = useTypeLabel();
  const f = d.figures;
  const reportLink = `/reports/compliance${type === 'primary' ? '' : `?compliance_type=${type}`}`;
  const worst = d.entities[0];

  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <Link
          to={reportLink}
          className="focus-ring block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-primary-400"
        >
          <span className="block text-sm text-slate-700">Score</span>
          <span className="mt-1 block text-2xl font-semibold tabular-nums text-slate-900">{f.score}%</span>
          <TrendText trend={d.trend} className="mt-1 block text-xs text-slate-600" />
        </Link>
        <a
          href="#ranked"
          className="focus-ring block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-primary-400"
        >
          <span className="block text-sm text-slate-700">{organisationsWord(wl)}</span>
          <span className="mt-1 block text-2xl font-semibold tabular-nums text-slate-900">
            {d.entities.length}
          </span>
          <span className="mt-1 block text-xs text-slate-600">
            {worst ? `Lowest: ${worst.name} (${worst.score}%)` : 'None below this one'}
          </span>
        </a>
        <a
          href="#courses"
          className="focus-ring block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-primary-400"
        >
          <span className="block text-sm text-slate-700">Out of date</span>
          <span className="mt-1 block text-2xl font-semibold tabular-nums text-slate-900">
            {f.expired + f.missing}
          </span>
          <span className="mt-1 block text-xs text-slate-600">
            of {f.required} required courses ({f.expired} expired, {f.missing} never done)
          </span>
        </a>
        <a
          href="#forecast"
          className="focus-ring block rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:ring-primary-400"
        >
          <span className="block text-sm text-slate-700">Expiring in 30 days</span>
          <span className="mt-1 block text-2xl font-semibold tabular-nums text-slate-900">
            {d.expiring_30.cells}
          </span>
          <span className="mt-1 block text-xs text-slate-600">
            required courses of {d.expiring_30.people} {d.expiring_30.people === 1 ? 'person' : 'people'}
          </span>
        </a>
      </div>
      <p className="text-xs text-slate-600">
        Figures count {typeLabel(type)} courses of everyone at {d.entity.name} and below, new starters
        included. In date includes expiring soon and exempt, as in the compliance report.
      </p>

      <Card
        id="ranked"
        className="scroll-mt-20"
        title={`${organisationsWord(wl)} ranked by score`}
        padded={false}
      >
        <RankedEntities d={d} />
      </Card>

      <div className="grid grid-cols-1 gap-6 2xl:grid-cols-2">
        <Card
          id="courses"
          className="scroll-mt-20"
          title="Worst courses"
          padded={false}
          actions={
            <Link to={reportLink} className={`${linkClass} text-sm`}>
              Compliance report by course
            </Link>
          }
        >
          <WorstCourses rows={d.courses} />
        </Card>
        <Card id="forecast" className="scroll-mt-20" title="Expiries in the next 12 months">
          <ForecastChart rows={d.forecast} />
        </Card>
      </div>

      <Card title="Score by month">
        <TrendChart months={[...d.trend.months, { month: d.generated_at.slice(0, 7), ...f }]} />
      </Card>
    </>
  );
}

/**
 * /management-dashboard (79), and /management-area (the same group view): an entity and everything below it — its
 * child entities ranked by score with their trend (each a link to its manager dashboard), the worst courses, the
 * expiry forecast. For the entity in view (acting-as) by default, switchable (`?entity=`).
 */
export default function ManagementDashboardPage() {
  const wl = useWhitelabel();
  const matches = useMatches();
  const title = (matches.at(-1)?.handle as { title?: string } | undefined)?.title ?? 'Management dashboard';
  const { entity, type, setEntity, setType } = useDashboardParams();
  const query = useManagementDashboard(entity, type);
  const d = query.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description={`Which ${organisationsWord(wl).toLowerCase()} and courses need attention, and what expires next.`}
      />
      <DashboardScope entity={d?.entity} type={type} onEntity={setEntity} onType={setType} />
      {query.isError ? (
        <DashboardError error={query.error} name={title.toLowerCase()} />
      ) : !d ? (
        <DashboardLoading />
      ) : (
        <Dashboard d={d} type={type} />
      )}
    </div>
  );
}

import {
  courseStatusText,
  DASHBOARD_EXPIRY_WINDOWS,
  type DashboardCourseCell,
  type DashboardList,
  type DashboardNewStarter,
  type DashboardPeopleList,
  type DashboardPerson,
  formatDate,
  type ManagerDashboard,
} from '@cc/contracts';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../app/api';
import { useWhitelabel } from '../app/whitelabel';
import { BookingManagerWidget } from '../bookings/BookingManagerWidget';
import { ManagerCareCertificateWidget } from '../care-certificate/widgets/ManagerCareCertificateWidget';
import { ComposeDialog } from '../messaging/ComposeDialog';
import { MessagePeopleButton, type PeoplePage } from '../messaging/MessagePeople';
import { AwaitingSignOffWidget } from '../pathways/AwaitingSignOffWidget';
import { ScoreBar, TrendChart } from '../reports/charts';
import { InspectionPackCard } from '../reports/InspectionPackCard';
import { RESULT_TYPE_LABELS } from '../results/api';
import { Badge, Button, Card, EmptyState, PageHeader, Pagination, Spinner, Tabs } from '../ui';
import { organisationWord } from '../whitelabel/words';
import { BehindCard } from './BehindCard';
import { type DashboardType, useDashboardPeople, useManagerDashboard } from './ManagerDashboardApi';
import {
  DashboardError,
  DashboardLoading,
  DashboardScope,
  plural,
  TrendText,
  useDashboardParams,
  useTypeLabel,
} from './ManagerDashboardParts';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/** One required course of a person, in words (contracts courseStatusText): "Fire safety — Expired on 12/10/2026". */
function CourseLine({ c }: { c: DashboardCourseCell }) {
  const typeLabel = useTypeLabel();
  const when = courseStatusText({ status: c.course_status, date: c.status_date, attempted: c.not_passed });
  const tone =
    c.course_status === 'expired' || c.course_status === 'missing' ? 'text-danger-700' : 'text-warning-800';
  return (
    <li className="flex flex-wrap items-baseline gap-x-2 text-sm">
      <span className="text-slate-900">{c.title}</span>
      <span className={`font-medium ${tone}`}>{when}</span>
      <span className="text-xs text-slate-500">({typeLabel(c.type)})</span>
    </li>
  );
}

function PersonRow({ p, showEntity }: { p: DashboardPerson; showEntity: boolean }) {
  return (
    <li className="border-t border-slate-100 py-3">
      <div className="flex flex-wrap items-baseline gap-x-2">
        <Link to={`/users/${p.uuid}`} className={linkClass}>
          {p.name}
        </Link>
        <span className="text-xs text-slate-600">
          {[p.role, showEntity ? p.entity.name : null].filter(Boolean).join(' · ')}
        </span>
      </div>
      <ul className="mt-1 space-y-0.5 pl-0 sm:pl-3">
        {p.courses.map((c) => (
          <CourseLine key={c.id} c={c} />
        ))}
      </ul>
    </li>
  );
}

function StarterRow({ p, showEntity }: { p: DashboardNewStarter; showEntity: boolean }) {
  return (
    <li className="grid grid-cols-1 gap-1 border-t border-slate-100 py-3 sm:grid-cols-2 sm:items-center sm:gap-4">
      <div>
        <Link to={`/users/${p.uuid}`} className={linkClass}>
          {p.name}
        </Link>
        <p className="text-xs text-slate-600">
          {[
            p.role,
            showEntity ? p.entity.name : null,
            p.start_date ? `started ${formatDate(p.start_date)}` : null,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      </div>
      {p.required === 0 ? (
        <p className="text-sm text-slate-600">No required courses for their role</p>
      ) : (
        <div>
          <ScoreBar score={p.score} label={`${p.name}'s progress`} />
          <p className="text-xs text-slate-600">
            {p.compliant} of {p.required} required courses in date
          </p>
        </div>
      )}
    </li>
  );
}

/**
 * A list of people: the dashboard's first rows, and "See all" for every one of them (paged, from
 * GET /dashboards/manager/people).
 */
function PeopleList({
  list,
  data,
  entity,
  entityId,
  type,
  empty,
}: {
  list: DashboardPeopleList;
  data: DashboardList<DashboardPerson | DashboardNewStarter>;
  entity: string | undefined;
  entityId: number;
  type: DashboardType;
  empty: string;
}) {
  const [all, setAll] = useState(false);
  const [page, setPage] = useState(1);
  const more = useDashboardPeople(entity ?? String(entityId), type, list, page, all);
  if (data.people === 0) return <p className="py-3 text-sm text-slate-600">{empty}</p>;
  const rows = all && more.data ? more.data.data : data.rows;
  // "Message these people": everyone on this list, not just the rows shown (issue 14).
  const fetchPeople = async (p: number, perPage: number) =>
    (
      await api.get<PeoplePage>('/dashboards/manager/people', {
        params: {
          entity: entity ?? String(entityId),
          compliance_type: type,
          list,
          page: p,
          per_page: perPage,
        },
      })
    ).data;
  const render = (p: DashboardPerson | DashboardNewStarter) => {
    const showEntity = p.entity.id !== entityId;
    return 'courses' in p ? (
      <PersonRow key={p.id} p={p} showEntity={showEntity} />
    ) : (
      <StarterRow key={p.id} p={p} showEntity={showEntity} />
    );
  };
  return (
    <div>
      <ul className={list === 'new_starters' ? '' : 'grid grid-cols-1 gap-x-8 lg:grid-cols-2'}>
        {rows.map(render)}
      </ul>
      {all && more.data ? (
        <div className="mt-3">
          <Pagination
            meta={more.data.meta}
            onPageChange={setPage}
            label={`Pages of ${list.replace(/_/g, ' ')}`}
          />
        </div>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {!all && data.people > data.rows.length ? (
          <Button variant="secondary" size="sm" onClick={() => setAll(true)} loading={all && more.isPending}>
            See all {data.people}
          </Button>
        ) : null}
        {list === 'new_starters' ? null : <MessagePeopleButton total={data.people} fetchPage={fetchPeople} />}
      </div>
      {all && more.isPending ? <Spinner className="text-slate-500" /> : null}
    </div>
  );
}

/** A figure of the head row: a number with what it counts, the whole tile a link to the list behind it. */
function Figure({
  label,
  value,
  detail,
  to,
  onClick,
  tone = 'neutral',
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  to: string;
  onClick?: () => void;
  tone?: 'neutral' | 'danger' | 'warning';
}) {
  const ring =
    tone === 'danger'
      ? 'ring-danger-200 bg-danger-100/40'
      : tone === 'warning'
        ? 'ring-warning-100 bg-warning-100/40'
        : 'ring-slate-200 bg-white';
  const className = `focus-ring block rounded-xl p-4 shadow-sm ring-1 hover:ring-primary-400 ${ring}`;
  const body = (
    <>
      <span className="block text-sm text-slate-700">{label}</span>
      <span className="mt-1 block text-2xl font-semibold tabular-nums text-slate-900">{value}</span>
      {detail ? <span className="mt-1 block text-xs text-slate-600">{detail}</span> : null}
    </>
  );
  // A list on this page: an in-page anchor (the URL keeps its ?entity=); elsewhere: a route link.
  if (to.startsWith('#'))
    return (
      <a
        href={to}
        className={className}
        onClick={(e) => {
          e.preventDefault();
          onClick?.();
        }}
      >
        {body}
      </a>
    );
  return (
    <Link to={to} className={className}>
      {body}
    </Link>
  );
}

/** Scrolls to a card and moves the focus there, so keyboard and screen-reader users land on the list too. */
function scrollToId(id: string) {
  requestAnimationFrame(() => {
    const el = document.getElementById(id);
    if (!el) return;
    el.scrollIntoView({ behavior: 'smooth', block: 'start' });
    el.setAttribute('tabindex', '-1');
    el.focus({ preventScroll: true });
  });
}

function Dashboard({
  d,
  entity,
  type,
}: {
  d: ManagerDashboard;
  entity: string | undefined;
  type: DashboardType;
}) {
  const typeLabel = useTypeLabel();
  const [windowIndex, setWindowIndex] = useState(0);
  const f = d.figures;
  const pendingType =
    d.pending && d.pending.total > 0
      ? (Object.entries(d.pending.by_type).sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'historical')
      : 'historical';
  const reportLink = `/reports/compliance${type === 'primary' ? '' : `?compliance_type=${type}`}`;
  const counted = typeLabel(type);
  const common = { entity, entityId: d.entity.id, type };
  return (
    <>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-5">
        <Figure
          label="Out of date now"
          value={plural(d.out_of_date.people, 'person', 'people')}
          detail={`${plural(d.out_of_date.cells, 'course')} expired or never done`}
          to="#out-of-date"
          onClick={() => scrollToId('out-of-date')}
          tone={d.out_of_date.people > 0 ? 'danger' : 'neutral'}
        />
        <Figure
          label="Expiring in 30 days"
          value={plural(d.expiring['30'].people, 'person', 'people')}
          detail={`${plural(d.expiring['90'].people, 'person', 'people')} within 90 days`}
          to="#expiring"
          onClick={() => {
            setWindowIndex(0);
            scrollToId('expiring');
          }}
          tone={d.expiring['30'].people > 0 ? 'warning' : 'neutral'}
        />
        {d.pending ? (
          <Figure
            label="Pending approvals"
            value={d.pending.total}
            detail={d.pending.total === 0 ? 'Nothing to approve' : 'Training records waiting for you'}
            to={`/results/pending/${pendingType}`}
          />
        ) : null}
        <Figure
          label="New starters"
          value={d.new_starters.people}
          detail="Within their starter period"
          to="#new-starters"
          onClick={() => scrollToId('new-starters')}
        />
        <Figure
          label="Compliance score"
          value={`${f.score}%`}
          detail={<TrendText trend={d.trend} className="text-xs" />}
          to={reportLink}
        />
      </div>

      <InspectionPackCard entity={d.entity} />

      <Card id="out-of-date" className="scroll-mt-20" title="Out of date now">
        <p className="mb-2 text-sm text-slate-600">
          People with a required course ({counted}) that has expired, or was never done and is past its due
          date. Most courses first.
        </p>
        <PeopleList
          list="out_of_date"
          data={d.out_of_date}
          {...common}
          empty="No one is out of date. Every required course is in date or exempt."
        />
      </Card>

      <Card id="expiring" className="scroll-mt-20" title="Expiring soon">
        <Tabs
          label="Expiring within"
          selectedIndex={windowIndex}
          onChange={setWindowIndex}
          tabs={DASHBOARD_EXPIRY_WINDOWS.map((days) => {
            const list = d.expiring[`${days}`];
            return {
              key: String(days),
              label: (
                <span className="block text-center leading-tight">
                  <span className="block">{days} days</span>
                  <span className="block text-xs font-normal">{plural(list.people, 'person', 'people')}</span>
                </span>
              ),
              content: (
                <PeopleList
                  list={`expiring_${days}`}
                  data={list}
                  {...common}
                  empty={`Nothing expires in the next ${days} days.`}
                />
              ),
            };
          })}
        />
      </Card>

      <BehindCard entity={d.entity} />

      <BookingManagerWidget entitySlug={d.entity.slug} />
      <ManagerCareCertificateWidget />
      <AwaitingSignOffWidget />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-3">
        <Card id="new-starters" className="scroll-mt-20 lg:col-span-2" title="New starters">
          <PeopleList
            list="new_starters"
            data={d.new_starters}
            {...common}
            empty="No new starters: everyone is past their starter period."
          />
        </Card>
        {d.pending ? (
          <Card title="Pending approvals">
            {d.pending.total === 0 ? (
              <p className="text-sm text-slate-600">No training records are waiting for approval.</p>
            ) : (
              <ul className="divide-y divide-slate-100">
                {Object.entries(d.pending.by_type).map(([t, n]) => (
                  <li key={t} className="flex items-center justify-between gap-3 py-2">
                    <Link to={`/results/pending/${t}`} className={linkClass}>
                      {RESULT_TYPE_LABELS[t] ?? t} records
                    </Link>
                    <Badge tone="warning">{n} waiting</Badge>
                  </li>
                ))}
              </ul>
            )}
          </Card>
        ) : null}
      </div>

      <Card
        title="Compliance score"
        actions={
          <Link to={reportLink} className={linkClass}>
            Open the compliance report
          </Link>
        }
      >
        <div className="space-y-4">
          <ScoreBar score={f.score} label={`${d.entity.name} compliance score`} />
          <TrendText trend={d.trend} />
          <p className="text-sm text-slate-700">
            {f.in_date + f.expiring + f.exempt} of {f.required} required courses ({counted}) are in date —
            this includes {f.expiring} expiring soon and {f.exempt} exempt; {f.expired} expired and{' '}
            {f.missing} never completed. {plural(f.users, 'person', 'people')} with required courses, new
            starters included.
          </p>
          <TrendChart months={[...d.trend.months, { month: d.generated_at.slice(0, 7), ...f }]} />
        </div>
      </Card>
    </>
  );
}

/**
 * /manager-dashboard (105): one home at a glance — who is out of date now and who expires soon, by name, each a link to
 * the person; pending approvals; new starters; the score and its trend. For the caller's own home by default,
 * switchable to any entity they may see (`?entity=`).
 */
export default function ManagerDashboardPage() {
  const wl = useWhitelabel();
  const { entity, type, setEntity, setType } = useDashboardParams();
  const query = useManagerDashboard(entity, type);
  const d = query.data;
  return (
    <div className="space-y-6">
      <PageHeader
        title="Manager dashboard"
        description={`Who needs chasing at your ${organisationWord(wl).toLowerCase()}, by name.`}
      />
      <DashboardScope entity={d?.entity} type={type} onEntity={setEntity} onType={setType} />
      {query.isError ? (
        <DashboardError error={query.error} name="manager dashboard" />
      ) : !d ? (
        <DashboardLoading />
      ) : d.figures.required === 0 && d.new_starters.people === 0 ? (
        <Card>
          <EmptyState
            title="Nothing is required yet"
            description={`No one at ${d.entity.name} holds a job role with required courses. Add courses to job roles to see who is in date.`}
          />
        </Card>
      ) : (
        <Dashboard d={d} entity={entity} type={type} />
      )}
      <ComposeDialog />
    </div>
  );
}

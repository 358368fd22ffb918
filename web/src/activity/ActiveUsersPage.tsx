import { ACTIVE_USER_DAYS, type ActiveUser, formatDateTime, Messages, ONLINE_MINUTES } from '@cc/contracts';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../app/api';
import { notifyError } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { ComposeDialog } from '../messaging/ComposeDialog';
import { MessagePeopleButton, type PeoplePage } from '../messaging/MessagePeople';
import {
  Badge,
  Card,
  CardPagination,
  type Column,
  cx,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
  Toggle,
} from '../ui';
import { useScopeSlug } from '../users/queries';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import {
  type ActiveFilters,
  deviceLabel,
  type MetricRange,
  metricRanges,
  useActiveUsers,
  useAuthMetrics,
} from './api';
import { SignInChart } from './SignInChart';

const RANGE_LABELS: Record<MetricRange['key'], string> = {
  today: 'Today',
  '7d': '7 days',
  '30d': '30 days',
  '12m': '12 months',
};
const RANGE_WORDS: Record<MetricRange['key'], string> = {
  today: 'today, by hour',
  '7d': 'in the last 7 days, by day',
  '30d': 'in the last 30 days, by day',
  '12m': 'in the last 12 months, by month',
};

function filtersFrom(params: URLSearchParams): ActiveFilters & { range: MetricRange['key'] } {
  const range = params.get('range');
  return {
    page: Math.max(1, Number(params.get('page')) || 1),
    search: params.get('search') ?? '',
    deep: params.get('deep') !== '0',
    range: range === '7d' || range === '30d' || range === '12m' ? range : 'today',
  };
}

function paramsFrom(f: ActiveFilters & { range: MetricRange['key'] }): URLSearchParams {
  const out = new URLSearchParams();
  if (f.page > 1) out.set('page', String(f.page));
  if (f.search) out.set('search', f.search);
  if (!f.deep) out.set('deep', '0');
  if (f.range !== 'today') out.set('range', f.range);
  return out;
}

function OnlineBadge({ user }: { user: ActiveUser }) {
  return user.online ? <Badge tone="success">Online now</Badge> : null;
}

/** `/active-users` (spec 1 §2 "active users", permission 67): sign-in metrics, then who is active. */
export default function ActiveUsersPage() {
  const wl = useWhitelabel();
  const [params, setParams] = useSearchParams();
  const filters = filtersFrom(params);
  const setFilters = (patch: Partial<ReturnType<typeof filtersFrom>>) =>
    setParams(paramsFrom({ ...filters, page: 1, ...patch }), { replace: patch.page === undefined });
  const slug = useScopeSlug();
  const [ranges] = useState(() => metricRanges());
  const range = ranges.find((r) => r.key === filters.range) ?? (ranges[0] as MetricRange);
  const metrics = useAuthMetrics(slug, range, filters.deep);
  const list = useActiveUsers({ page: filters.page, search: filters.search, deep: filters.deep });

  // spec 1 §8: 'Failed to fetch active users.'
  useEffect(() => {
    if (list.isError)
      notifyError({ message: Messages.failedToFetchActiveUsers }, Messages.failedToFetchActiveUsers);
  }, [list.isError]);

  const columns: Column<ActiveUser>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (u) => (
        <span className="flex flex-wrap items-center gap-2">
          <Link
            to={`/users/${u.uuid}`}
            className="focus-ring rounded font-medium text-primary-800 hover:underline"
          >
            {u.name}
          </Link>
          <OnlineBadge user={u} />
        </span>
      ),
    },
    { key: 'entity', header: organisationWord(wl), render: (u) => u.primary_entity.name },
    { key: 'role', header: 'Job role', hideOnMobile: true, render: (u) => u.role?.name ?? '—' },
    {
      key: 'last',
      header: 'Last signed in',
      render: (u) => formatDateTime(u.last_login_at, undefined, '—'),
    },
    { key: 'device', header: 'Device', hideOnMobile: true, render: (u) => deviceLabel(u.device, u.via) },
    {
      key: 'sessions',
      header: 'Sessions now',
      hideOnMobile: true,
      render: (u) => (u.active_sessions ? String(u.active_sessions) : '—'),
    },
  ];

  const empty = list.isError ? (
    <EmptyState
      title={Messages.failedToFetchActiveUsers}
      description={errorEnvelope(list.error, 'Please try again.').message}
    />
  ) : filters.search ? (
    <EmptyState
      title="Nobody matches"
      description="Try another name or e-mail address."
      action={
        <button
          type="button"
          className="focus-ring rounded text-sm font-medium text-primary-800 underline"
          onClick={() => setFilters({ search: '' })}
        >
          Clear search
        </button>
      }
    />
  ) : (
    <EmptyState
      title="Nobody has signed in recently"
      description={`People appear here once they sign in; this list covers the last ${ACTIVE_USER_DAYS} days.`}
    />
  );
  const totals = metrics.data?.totals;

  return (
    <div className="space-y-6">
      <PageHeader
        title="Active users"
        description={`Who signed in within the last ${ACTIVE_USER_DAYS} days. “Online now” means they used the app in the last ${ONLINE_MINUTES} minutes.`}
      />
      <Toggle
        label={`Include sub-${organisationsWord(wl).toLowerCase()}`}
        checked={filters.deep}
        onChange={(deep) => setFilters({ deep })}
      />
      <Card
        title="Sign-ins"
        actions={
          <fieldset className="inline-flex rounded-lg ring-1 ring-slate-300">
            <legend className="sr-only">Period</legend>
            {ranges.map((r, i) => (
              <button
                key={r.key}
                type="button"
                aria-pressed={r.key === range.key}
                onClick={() => setFilters({ range: r.key, page: filters.page })}
                className={cx(
                  'focus-ring px-2.5 py-1.5 text-sm font-medium whitespace-nowrap sm:px-3',
                  i === 0 && 'rounded-l-lg',
                  i === ranges.length - 1 && 'rounded-r-lg',
                  i > 0 && 'border-l border-slate-300',
                  r.key === range.key
                    ? 'bg-primary-700 text-white'
                    : 'bg-white text-slate-700 hover:bg-slate-50',
                )}
              >
                {RANGE_LABELS[r.key]}
              </button>
            ))}
          </fieldset>
        }
      >
        {metrics.isError ? (
          <p role="alert" className="text-sm text-rose-700">
            {errorEnvelope(metrics.error, Messages.somethingWentWrong).message}
          </p>
        ) : !metrics.data ? (
          <div className="cc-skeleton h-52 rounded bg-slate-100" role="status" aria-busy="true">
            <span className="sr-only">Loading sign-ins</span>
          </div>
        ) : (
          <div className="space-y-4" data-testid="signin-metrics">
            <dl className="grid grid-cols-3 gap-3">
              <Figure label="Sign-ins" value={totals?.sign_ins ?? 0} />
              <Figure label="People" value={totals?.users ?? 0} />
              <Figure
                label="Failed sign-ins"
                value={totals?.failed ?? 0}
                tone={totals?.failed ? 'danger' : undefined}
              />
            </dl>
            <p className="text-sm text-slate-600">Sign-ins {RANGE_WORDS[range.key]} (UK time).</p>
            <SignInChart buckets={metrics.data.data} period={metrics.data.period} />
          </div>
        )}
      </Card>
      <Card
        padded={false}
        title="Who is active"
        actions={
          <MessagePeopleButton
            total={list.data?.meta.total ?? 0}
            fetchPage={async (page, perPage) =>
              (
                await api.get<PeoplePage>('/auth-events/active', {
                  params: {
                    page,
                    per_page: perPage,
                    search: filters.search || undefined,
                    deep: filters.deep,
                  },
                })
              ).data
            }
          />
        }
      >
        <div className="border-b border-slate-200 p-4">
          <div className="max-w-md">
            <SearchInput
              label="Search active users"
              placeholder="Name or e-mail…"
              value={filters.search}
              onSearch={(search) => setFilters({ search, range: filters.range })}
            />
          </div>
        </div>
        <div className="hidden sm:block">
          <DataTable
            caption="Active users"
            columns={columns}
            rows={list.data?.data}
            rowKey={(u) => u.id}
            loading={list.isLoading}
            empty={empty}
          />
        </div>
        <ul
          className="divide-y divide-slate-100 sm:hidden"
          aria-label="Active users"
          aria-busy={list.isLoading || undefined}
        >
          {list.data?.data.map((u) => (
            <li key={u.id} className="space-y-1 p-4">
              <p className="flex flex-wrap items-center gap-2">
                <Link
                  to={`/users/${u.uuid}`}
                  className="focus-ring rounded font-medium text-primary-800 hover:underline"
                >
                  {u.name}
                </Link>
                <OnlineBadge user={u} />
              </p>
              <p className="text-sm text-slate-700">
                {[u.role?.name, u.primary_entity.name].filter(Boolean).join(' · ')}
              </p>
              <p className="text-xs text-slate-600">
                Signed in {formatDateTime(u.last_login_at, undefined, '—')} · {deviceLabel(u.device, u.via)}
                {u.active_sessions
                  ? ` · ${u.active_sessions} ${u.active_sessions === 1 ? 'session' : 'sessions'}`
                  : ''}
              </p>
            </li>
          ))}
          {!list.isLoading && !list.data?.data.length ? <li>{empty}</li> : null}
        </ul>
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(page) => setFilters({ page, range: filters.range })}
          label="Active user pages"
        />
      </Card>
      <ComposeDialog />
    </div>
  );
}

function Figure({ label, value, tone }: { label: string; value: number; tone?: 'danger' }) {
  return (
    <div className="rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
      <dt className="text-xs font-medium text-slate-600">{label}</dt>
      <dd className={cx('text-2xl font-semibold', tone === 'danger' ? 'text-rose-700' : 'text-slate-900')}>
        {value}
      </dd>
    </div>
  );
}

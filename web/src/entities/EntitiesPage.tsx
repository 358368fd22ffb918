import { type EntityDto, Messages, Perm } from '@cc/contracts';
import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useAuth, usePermission } from '../app/auth';
import { notifyError } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import {
  Badge,
  ButtonLink,
  Card,
  CardPagination,
  type Column,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
  Select,
  Toggle,
} from '../ui';
import { levelLabel, organisationsWord, organisationWord, sitesWord } from '../whitelabel/words';
import { type EntityListFilters, useEntities } from './queries';
import { errorEnvelope } from './shared';
import { TrainingCompanyBadge, TrainingCompanyRequestsCard } from './training-company';

/** Filters live in the address, so a list can be shared, reloaded and walked back through. */
function useFilters(): [EntityListFilters, (patch: Partial<EntityListFilters>) => void] {
  const [params, setParams] = useSearchParams();
  const filters: EntityListFilters = {
    page: Math.max(1, Number(params.get('page')) || 1),
    search: params.get('search') ?? '',
    deep: params.get('deep') === '1',
    level: (['A', 'B'].includes(params.get('level') ?? '')
      ? params.get('level')
      : '') as EntityListFilters['level'],
  };
  const update = (patch: Partial<EntityListFilters>) => {
    const next = { ...filters, page: 1, ...patch };
    const out = new URLSearchParams();
    if (next.page > 1) out.set('page', String(next.page));
    if (next.search) out.set('search', next.search);
    if (next.deep) out.set('deep', '1');
    if (next.level) out.set('level', next.level);
    setParams(out, { replace: patch.page === undefined });
  };
  return [filters, update];
}

/** `/entities` (spec 1 §2, §7 GET /entities): search, sub-organisations, level; a row opens the entity. */
export default function EntitiesPage() {
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const canAdd = usePermission([Perm.addEntity]);
  const { user } = useAuth();
  const [filters, setFilters] = useFilters();
  const query = useEntities(filters);

  // spec 1 §8: 'Failed to fetch entities.' (the progress bar ends with the request).
  useEffect(() => {
    if (query.isError)
      notifyError(errorEnvelope(query.error, Messages.failedToFetchEntities), Messages.failedToFetchEntities);
  }, [query.isError, query.error]);

  const columns: Column<EntityDto>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (e) => (
        <Link
          to={`/entities/${e.slug}`}
          className="focus-ring rounded font-medium text-primary-800 hover:underline"
        >
          {e.name}
        </Link>
      ),
    },
    { key: 'level', header: 'Kind', render: (e) => <Badge>{levelLabel(e.level, wl)}</Badge> },
    {
      key: 'type',
      header: 'Type',
      hideOnMobile: true,
      render: (e) =>
        e.is_training_company ? (
          <TrainingCompanyBadge status={e.training_company_status} />
        ) : (
          <span className="text-slate-600">Care provider</span>
        ),
    },
    {
      key: 'parent',
      header: 'Parent',
      hideOnMobile: true,
      render: (e) => e.parent?.name ?? <span className="text-slate-500">—</span>,
    },
  ];

  const noFilters = !filters.search && !filters.level;
  return (
    <div>
      <PageHeader
        title={organisationsWord(wl)}
        description="Organisations and sites you can see."
        actions={
          canAdd ? (
            <ButtonLink to="/entities/create">Add {organisationWord(wl).toLowerCase()}</ButtonLink>
          ) : undefined
        }
      />
      {/* Issue 29 §7: super admins answer the organisations that asked to be training companies. */}
      {user?.super_admin ? <TrainingCompanyRequestsCard /> : null}
      <Card padded={false}>
        <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:flex-wrap sm:items-end">
          <SearchInput
            label={`Search ${organisationsWord(wl).toLowerCase()}`}
            value={filters.search}
            onSearch={(search) => setFilters({ search })}
          />
          <div className="w-full sm:w-44">
            <Select
              label="Kind"
              hideLabel
              options={[
                { value: '', label: 'Groups and sites' },
                { value: 'A', label: 'Groups' },
                { value: 'B', label: sitesWord(wl) },
              ]}
              value={filters.level}
              onChange={(e) => setFilters({ level: e.target.value as EntityListFilters['level'] })}
            />
          </div>
          <div className="sm:ml-auto sm:self-center">
            <Toggle
              label="Include sub-organisations"
              checked={filters.deep}
              onChange={(deep) => setFilters({ deep })}
            />
          </div>
        </div>
        <div className="hidden sm:block">
          <DataTable
            caption={organisationsWord(wl)}
            columns={columns}
            rows={query.data?.data}
            rowKey={(e) => e.id}
            loading={query.isLoading}
            empty={
              <Empty
                noFilters={noFilters}
                canAdd={canAdd}
                failed={query.isError}
                onClear={() => setFilters({ search: '', level: '' })}
              />
            }
          />
        </div>
        {/* Narrow screens: each entity a stacked card; the whole card opens it. */}
        <ul
          className="divide-y divide-slate-100 sm:hidden"
          aria-label={organisationsWord(wl)}
          aria-busy={query.isLoading || undefined}
        >
          {query.isLoading
            ? [0, 1, 2].map((i) => (
                <li key={i} className="p-4">
                  <div className="cc-skeleton h-4 w-2/3 rounded bg-slate-200" />
                </li>
              ))
            : query.data?.data.map((e) => (
                <li key={e.id}>
                  <button
                    type="button"
                    onClick={() => navigate(`/entities/${e.slug}`)}
                    className="focus-ring flex w-full flex-col items-start gap-1 p-4 text-left hover:bg-slate-50"
                  >
                    <span className="font-medium text-primary-800">{e.name}</span>
                    <span className="flex flex-wrap gap-2 text-xs text-slate-600">
                      <Badge>{`Level ${e.level}`}</Badge>
                      {e.is_training_company ? (
                        <TrainingCompanyBadge status={e.training_company_status} />
                      ) : null}
                      {e.parent ? <span>in {e.parent.name}</span> : null}
                    </span>
                  </button>
                </li>
              ))}
          {!query.isLoading && !query.data?.data.length ? (
            <li>
              <Empty
                noFilters={noFilters}
                canAdd={canAdd}
                failed={query.isError}
                onClear={() => setFilters({ search: '', level: '' })}
              />
            </li>
          ) : null}
        </ul>
        <CardPagination
          meta={query.data?.meta}
          onPageChange={(page) => setFilters({ page })}
          label={`${organisationsWord(wl)} pages`}
        />
      </Card>
    </div>
  );
}

function Empty({
  noFilters,
  canAdd,
  failed,
  onClear,
}: {
  noFilters: boolean;
  canAdd: boolean;
  failed: boolean;
  onClear: () => void;
}) {
  const wl = useWhitelabel();
  if (failed)
    return <EmptyState title={Messages.failedToFetchEntities} description="Please try again in a moment." />;
  if (!noFilters)
    return (
      <EmptyState
        title={`No ${organisationsWord(wl).toLowerCase()} match`}
        description="Try another search or level."
        action={
          <button
            type="button"
            onClick={onClear}
            className="focus-ring rounded text-sm font-medium text-primary-800 underline"
          >
            Clear filters
          </button>
        }
      />
    );
  return (
    <EmptyState
      title={`No ${organisationsWord(wl).toLowerCase()} yet`}
      description="Add the first one to start organising your users."
      action={
        canAdd ? (
          <ButtonLink to="/entities/create">Add {organisationWord(wl).toLowerCase()}</ButtonLink>
        ) : undefined
      }
    />
  );
}

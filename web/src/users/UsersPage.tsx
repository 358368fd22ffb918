import { formatDate, LearningPerm, Messages, type Paged, Perm, type UserSummary } from '@cc/contracts';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api } from '../app/api';
import { usePermission } from '../app/auth';
import { notifyError } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import { StartCourseDialog } from '../tasks/StartCourseDialog';
import {
  Badge,
  Button,
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
import { organisationWord } from '../whitelabel/words';
import { useNamedOptions, useScopeSlug } from './queries';

export interface UserListFilters {
  page: number;
  search: string;
  is_trainer: '' | '0' | '1';
  type_id: string;
  role_id: string;
  deep: boolean;
}

/** Filters from the address (so a filtered list can be shared and reloaded) and back. */
export function filtersFromParams(params: URLSearchParams): UserListFilters {
  const trainer = params.get('is_trainer');
  return {
    page: Math.max(1, Number(params.get('page')) || 1),
    search: params.get('search') ?? '',
    is_trainer: trainer === '0' || trainer === '1' ? trainer : '',
    type_id: /^\d+$/.test(params.get('type_id') ?? '') ? (params.get('type_id') as string) : '',
    role_id: /^\d+$/.test(params.get('role_id') ?? '') ? (params.get('role_id') as string) : '',
    deep: params.get('deep') !== '0',
  };
}

export function paramsFromFilters(f: UserListFilters): URLSearchParams {
  const out = new URLSearchParams();
  if (f.page > 1) out.set('page', String(f.page));
  if (f.search) out.set('search', f.search);
  if (f.is_trainer) out.set('is_trainer', f.is_trainer);
  if (f.type_id) out.set('type_id', f.type_id);
  if (f.role_id) out.set('role_id', f.role_id);
  if (!f.deep) out.set('deep', '0');
  return out;
}

/** The organisation's date format (dates.ts); '—' for none. */
const formatDay = (iso: string | null) => formatDate(iso, undefined, '—');

/** `/users` (spec 1 §7 GET /users with actingAs, is_trainer 0/1, type_id; plus role_id and deep). */
export default function UsersPage() {
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const canAdd = usePermission([Perm.addUser]);
  // 111 bulk create attempts: start a course for several people at once (a background task).
  const canStartCourses = usePermission([LearningPerm.bulkCreateAttempts]);
  const [starting, setStarting] = useState(false);
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const setFilters = (patch: Partial<UserListFilters>) =>
    setParams(paramsFromFilters({ ...filters, page: 1, ...patch }), { replace: patch.page === undefined });
  const slug = useScopeSlug();
  const roles = useNamedOptions('roles', slug);
  const types = useNamedOptions('types', slug);
  const canFilterRoles = usePermission([Perm.viewRoles, Perm.readOnlyRoles], 'any');
  const canFilterTypes = usePermission([Perm.viewTypes]);

  const list = useQuery({
    queryKey: ['users', 'list', filters, slug],
    queryFn: async () =>
      (
        await api.get<Paged<UserSummary>>('/users', {
          params: {
            page: filters.page,
            search: filters.search || undefined,
            is_trainer: filters.is_trainer || undefined,
            type_id: filters.type_id || undefined,
            role_id: filters.role_id || undefined,
            deep: filters.deep,
          },
        })
      ).data,
    placeholderData: (previous) => previous,
  });
  // spec 2 §8: 'Failed to fetch users.'
  useEffect(() => {
    if (list.isError) notifyError({ message: Messages.failedToFetchUsers }, Messages.failedToFetchUsers);
  }, [list.isError]);

  const columns: Column<UserSummary>[] = [
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
          {u.is_trainer ? <Badge tone="success">Trainer</Badge> : null}
        </span>
      ),
    },
    { key: 'email', header: 'E-mail', render: (u) => <span className="break-all">{u.email ?? '—'}</span> },
    { key: 'role', header: 'Job role', hideOnMobile: true, render: (u) => u.role?.name ?? '—' },
    { key: 'type', header: 'User type', hideOnMobile: true, render: (u) => u.type?.name ?? '—' },
    { key: 'entity', header: organisationWord(wl), hideOnMobile: true, render: (u) => u.primary_entity.name },
    { key: 'start', header: 'Start date', hideOnMobile: true, render: (u) => formatDay(u.start_date) },
  ];
  const filtered = Boolean(filters.search || filters.is_trainer || filters.type_id || filters.role_id);
  const empty = list.isError ? (
    <EmptyState
      title={Messages.failedToFetchUsers}
      description={errorEnvelope(list.error, 'Please try again.').message}
    />
  ) : filtered ? (
    <EmptyState
      title="No users match"
      description="Try another search or fewer filters."
      action={
        <button
          type="button"
          className="focus-ring rounded text-sm font-medium text-primary-800 underline"
          onClick={() => setFilters({ search: '', is_trainer: '', type_id: '', role_id: '' })}
        >
          Clear filters
        </button>
      }
    />
  ) : (
    <EmptyState
      title="No users yet"
      description="Add the people who work here so you can track their training."
      action={canAdd ? <ButtonLink to="/users/create">Add a user</ButtonLink> : undefined}
    />
  );

  return (
    <div>
      <PageHeader
        title="Users"
        description="People in the organisations you can see."
        actions={
          canAdd || canStartCourses ? (
            <div className="flex flex-wrap gap-2">
              {canStartCourses ? (
                <Button variant="secondary" onClick={() => setStarting(true)}>
                  Start a course for people
                </Button>
              ) : null}
              {canAdd ? <ButtonLink to="/users/create">Add a user</ButtonLink> : null}
            </div>
          ) : undefined
        }
      />
      <Card padded={false}>
        <div className="grid grid-cols-1 gap-3 border-b border-slate-200 p-4 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
          <div className="sm:col-span-2 lg:col-span-1">
            <SearchInput
              label="Search users"
              placeholder="Name or e-mail…"
              value={filters.search}
              onSearch={(search) => setFilters({ search })}
            />
          </div>
          {canFilterRoles ? (
            <Select
              label="Job role"
              hideLabel
              options={[
                { value: '', label: 'All job roles' },
                ...(roles.data ?? []).map((r) => ({ value: r.id, label: r.name })),
              ]}
              value={filters.role_id}
              onChange={(e) => setFilters({ role_id: e.target.value })}
            />
          ) : null}
          {canFilterTypes ? (
            <Select
              label="User type"
              hideLabel
              options={[
                { value: '', label: 'All user types' },
                ...(types.data ?? []).map((t) => ({ value: t.id, label: t.name })),
              ]}
              value={filters.type_id}
              onChange={(e) => setFilters({ type_id: e.target.value })}
            />
          ) : null}
          <Select
            label="Trainers"
            hideLabel
            options={[
              { value: '', label: 'Trainers and others' },
              { value: '1', label: 'Trainers only' },
              { value: '0', label: 'Not trainers' },
            ]}
            value={filters.is_trainer}
            onChange={(e) => setFilters({ is_trainer: e.target.value as UserListFilters['is_trainer'] })}
          />
          <div className="sm:col-span-2 lg:col-span-4">
            <Toggle
              label="Include sub-organisations"
              checked={filters.deep}
              onChange={(deep) => setFilters({ deep })}
            />
          </div>
        </div>
        <div className="hidden sm:block">
          <DataTable
            caption="Users"
            columns={columns}
            rows={list.data?.data}
            rowKey={(u) => u.id}
            loading={list.isLoading}
            empty={empty}
          />
        </div>
        <ul
          className="divide-y divide-slate-100 sm:hidden"
          aria-label="Users"
          aria-busy={list.isLoading || undefined}
        >
          {list.isLoading
            ? [0, 1, 2, 3].map((i) => (
                <li key={i} className="space-y-2 p-4">
                  <div className="cc-skeleton h-4 w-1/2 rounded bg-slate-200" />
                  <div className="cc-skeleton h-3 w-3/4 rounded bg-slate-200" />
                </li>
              ))
            : list.data?.data.map((u) => (
                <li key={u.id}>
                  <button
                    type="button"
                    onClick={() => navigate(`/users/${u.uuid}`)}
                    className="focus-ring flex w-full flex-col items-start gap-0.5 p-4 text-left hover:bg-slate-50"
                  >
                    <span className="flex items-center gap-2 font-medium text-primary-800">
                      {u.name}
                      {u.is_trainer ? <Badge tone="success">Trainer</Badge> : null}
                    </span>
                    {u.email ? <span className="text-sm break-all text-slate-700">{u.email}</span> : null}
                    <span className="text-xs text-slate-600">
                      {[u.role?.name, u.type?.name, u.primary_entity.name].filter(Boolean).join(' · ')}
                    </span>
                  </button>
                </li>
              ))}
          {!list.isLoading && !list.data?.data.length ? <li>{empty}</li> : null}
        </ul>
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(page) => setFilters({ page })}
          label="User pages"
        />
      </Card>
      {canStartCourses ? <StartCourseDialog open={starting} onClose={() => setStarting(false)} /> : null}
    </div>
  );
}

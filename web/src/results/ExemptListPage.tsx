import { type Paged, Perm, ResultsMessages, ResultsPerm, type ResultView } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { api } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { notifyError } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { useEntityOptions } from '../entities/queries';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  Button,
  ButtonLink,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  Select,
} from '../ui';
import { organisationsWord, organisationWord } from '../whitelabel/words';
import { formatDay, resultKeys, resultRowAction } from './api';
import { CoursePicker, type PickItem, UserPicker } from './Picker';

interface Filters {
  page: number;
  entity_id: string;
  user: PickItem | null;
  course: PickItem | null;
}

/** `/results/exempt` (spec 2 §2): exemptions in scope, paged, filtered by organisation, user and course. */
export default function ExemptListPage() {
  const wl = useWhitelabel();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<Filters>({ page: 1, entity_id: '', user: null, course: null });
  const change = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));
  // GET /entities asks for 22: without it (a trainer) the organisation filter is not offered, rather than a 403.
  const canFilterEntities = can([Perm.searchEntities]);
  const entities = useEntityOptions(canFilterEntities);
  const [deleting, setDeleting] = useState<ResultView | null>(null);
  const params = {
    page: filters.page,
    entity_id: filters.entity_id || undefined,
    user_id: filters.user?.id,
    course_id: filters.course?.id,
  };
  const list = useQuery({
    queryKey: resultKeys.exempt(params),
    queryFn: async () => (await api.get<Paged<ResultView>>('/results/exempt', { params })).data,
    placeholderData: (previous) => previous,
  });
  useEffect(() => {
    if (list.isError)
      notifyError(
        errorEnvelope(list.error, ResultsMessages.fetchResultsFailed),
        ResultsMessages.fetchResultsFailed,
      );
  }, [list.isError, list.error]);

  const canAdd = can([ResultsPerm.addRecord]);
  const canEdit = can([ResultsPerm.updateRecord]);
  const canDelete = can([ResultsPerm.deleteTrainingRecord]);
  const remove = (r: ResultView) =>
    resultRowAction(() => api.delete<{ message?: string }>(`/results/exempt/${r.id}`), {
      success: ResultsMessages.exemptDeleted,
      failure: ResultsMessages.fetchResultsFailed,
      after: () => queryClient.invalidateQueries({ queryKey: resultKeys.all }),
      rethrow: true,
    });

  const columns: Column<ResultView>[] = [
    {
      key: 'user',
      header: 'User',
      render: (r) => (
        <span className="flex flex-col">
          <Link
            to={`/users/${r.user.uuid}`}
            className="focus-ring rounded font-medium text-primary-800 hover:underline"
          >
            {r.user.name}
          </Link>
          <span className="text-xs text-slate-600 md:hidden">{r.course.title}</span>
        </span>
      ),
    },
    { key: 'course', header: 'Course', hideOnMobile: true, render: (r) => r.course.title },
    { key: 'entity', header: organisationWord(wl), hideOnMobile: true, render: (r) => r.entity.name },
    { key: 'from', header: 'From', hideOnMobile: true, render: (r) => formatDay(r.completed_at) },
    {
      key: 'until',
      header: 'Until',
      render: (r) => (r.expires_at ? formatDay(r.expires_at) : <Badge tone="success">No end date</Badge>),
    },
    {
      key: 'notes',
      header: 'Reason',
      hideOnMobile: true,
      render: (r) => <span className="line-clamp-2">{r.notes ?? '—'}</span>,
    },
  ];
  const filtered = Boolean(filters.entity_id || filters.user || filters.course);
  const empty = list.isError ? (
    <EmptyState
      title={ResultsMessages.fetchResultsFailed}
      description={errorEnvelope(list.error, 'Please try again.').message}
    />
  ) : filtered ? (
    <EmptyState
      title="No exemptions match"
      description="Try fewer filters."
      action={
        <button
          type="button"
          className="focus-ring rounded text-sm font-medium text-primary-800 underline"
          onClick={() => change({ entity_id: '', user: null, course: null })}
        >
          Clear filters
        </button>
      }
    />
  ) : (
    <EmptyState
      title="No exemptions yet"
      description="Exempt someone from a course when they do not need to take it; they show as exempt and count as compliant."
      action={canAdd ? <ButtonLink to="/results/exempt/create">Add an exemption</ButtonLink> : undefined}
    />
  );

  return (
    <div>
      <PageHeader
        title="Exemptions"
        description="People exempt from a course: they count as compliant without taking it."
        actions={canAdd ? <ButtonLink to="/results/exempt/create">Add an exemption</ButtonLink> : undefined}
      />
      <Card padded={false}>
        <div className="grid grid-cols-1 gap-3 border-b border-slate-200 p-4 sm:grid-cols-3 sm:items-end">
          {canFilterEntities ? (
            <Select
              label={organisationWord(wl)}
              options={[
                { value: '', label: `All ${organisationsWord(wl).toLowerCase()}` },
                ...(entities.data ?? []).map((e) => ({ value: e.id, label: e.name })),
              ]}
              value={filters.entity_id}
              onChange={(e) => change({ entity_id: e.target.value })}
            />
          ) : null}
          <UserPicker value={filters.user} onChange={(user) => change({ user })} placeholder="Any user" />
          <CoursePicker
            value={filters.course}
            onChange={(course) => change({ course })}
            placeholder="Any course"
          />
        </div>
        <DataTable
          caption="Exemptions"
          columns={columns}
          rows={list.data?.data}
          rowKey={(r) => r.id}
          loading={list.isLoading}
          empty={empty}
          rowActions={
            canEdit || canDelete
              ? (r) => (
                  <>
                    {canEdit ? (
                      <ButtonLink
                        variant="ghost"
                        size="sm"
                        to={`/results/exempt/update/${r.id}`}
                        aria-label={`Edit the exemption of ${r.user.name}`}
                      >
                        Edit
                      </ButtonLink>
                    ) : null}
                    {canDelete ? (
                      <Button
                        variant="ghost"
                        size="sm"
                        onClick={() => setDeleting(r)}
                        aria-label={`Delete the exemption of ${r.user.name}`}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </>
                )
              : undefined
          }
        />
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(page) => setFilters((f) => ({ ...f, page }))}
          label="Exemption pages"
        />
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this exemption?"
        message={
          deleting ? (
            <>
              {deleting.user.name} will no longer be exempt from {deleting.course.title}.
            </>
          ) : null
        }
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

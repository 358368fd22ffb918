import { type BulkOperationView, type Paged, ResultsMessages, ResultsPerm } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { notifyError } from '../app/notifications';
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
  SearchInput,
} from '../ui';
import { formatDateTime, formatDay, RESULT_TYPE_LABELS, resultKeys, resultRowAction } from './api';

/** `/users/bulk-add-events-history` (spec 1 §2): past bulk adds (who, when, course, how many); 36 undoes one. */
export default function BulkHistoryPage() {
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<BulkOperationView | null>(null);
  const params = { page, search: search || undefined };
  const list = useQuery({
    queryKey: resultKeys.history(params),
    queryFn: async () =>
      (await api.get<Paged<BulkOperationView>>('/users/bulk-add-events-history', { params })).data,
    placeholderData: (previous) => previous,
  });
  useEffect(() => {
    if (list.isError)
      notifyError(
        errorEnvelope(list.error, ResultsMessages.fetchHistoryFailed),
        ResultsMessages.fetchHistoryFailed,
      );
  }, [list.isError, list.error]);
  const canAdd = can([ResultsPerm.addUserEvents]);
  const canDelete = can([ResultsPerm.deleteUserEvents]);

  const remove = (op: BulkOperationView) =>
    resultRowAction(() => api.delete<{ message?: string }>(`/users/bulk-add-events/${op.id}`), {
      success: ResultsMessages.bulkDeleted,
      failure: ResultsMessages.fetchHistoryFailed,
      after: () => queryClient.invalidateQueries({ queryKey: resultKeys.all }),
      rethrow: true,
    });

  const columns: Column<BulkOperationView>[] = [
    {
      key: 'course',
      header: 'Course',
      render: (o) => (
        <span className="flex flex-col">
          <span className="font-medium text-slate-900">{o.course.title}</span>
          <span className="text-xs text-slate-600 md:hidden">
            {o.user_count} users · {formatDay(o.completed_at)}
          </span>
        </span>
      ),
    },
    { key: 'type', header: 'Type', hideOnMobile: true, render: (o) => RESULT_TYPE_LABELS[o.type] ?? o.type },
    { key: 'date', header: 'Event date', hideOnMobile: true, render: (o) => formatDay(o.completed_at) },
    { key: 'count', header: 'Users', hideOnMobile: true, render: (o) => o.user_count },
    {
      key: 'by',
      header: 'Added by',
      hideOnMobile: true,
      render: (o) => (
        <span className="flex flex-col">
          <span>{o.created_by?.name ?? '—'}</span>
          <span className="text-xs text-slate-600">{formatDateTime(o.created_at)}</span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (o) =>
        o.deleted_at ? (
          <Badge tone="danger">Deleted{o.deleted_by ? ` by ${o.deleted_by.name}` : ''}</Badge>
        ) : (
          <Badge tone="success">Added</Badge>
        ),
    },
  ];
  const empty = list.isError ? (
    <EmptyState
      title={ResultsMessages.fetchHistoryFailed}
      description={errorEnvelope(list.error, 'Please try again.').message}
    />
  ) : (
    <EmptyState
      title={search ? 'No bulk adds match' : 'No bulk adds yet'}
      description="Each time events are added for many users at once, it is listed here."
      action={canAdd ? <ButtonLink to="/users/bulk-add-events">Bulk add events</ButtonLink> : undefined}
    />
  );

  return (
    <div>
      <PageHeader
        title="Bulk add event history"
        breadcrumbs={[{ label: 'Users', to: '/users' }, { label: 'Bulk add event history' }]}
        description="Who added events for many users at once, when, for which course and for how many."
        actions={canAdd ? <ButtonLink to="/users/bulk-add-events">Bulk add events</ButtonLink> : undefined}
      />
      <Card padded={false}>
        <div className="border-b border-slate-200 p-4">
          <SearchInput
            label="Search the history"
            placeholder="Course or person…"
            value={search}
            onSearch={(s) => {
              setSearch(s);
              setPage(1);
            }}
          />
        </div>
        <DataTable
          caption="Bulk add event history"
          columns={columns}
          rows={list.data?.data}
          rowKey={(o) => o.id}
          loading={list.isLoading}
          empty={empty}
          rowActions={
            canDelete
              ? (o) =>
                  o.deleted_at ? null : (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => setDeleting(o)}
                      aria-label={`Delete the events added for ${o.course.title} on ${formatDay(o.completed_at)}`}
                    >
                      Delete
                    </Button>
                  )
              : undefined
          }
        />
        <CardPagination meta={list.data?.meta} onPageChange={setPage} label="History pages" />
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete these events?"
        message={
          deleting
            ? `The ${deleting.user_count} ${deleting.course.title} results added on ${formatDateTime(deleting.created_at)} will be deleted.`
            : null
        }
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

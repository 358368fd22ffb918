import { type Paged, RESULT_TYPES, ResultsMessages, ResultsPerm, type ResultView } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { api, buildUrl } from '../app/api';
import { usePermissionChecker } from '../app/auth';
import { approvePendingResult, deletePendingResult } from '../app/graphql/operations';
import { notifyError } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  SearchInput,
  Select,
} from '../ui';
import { formatDay, RESULT_TYPE_LABELS, resultKeys, resultRowAction } from './api';

/**
 * `/results/pending/{type}` (spec 2 §2): results of one type awaiting approval. Approving (25) counts the result at
 * once (latest_results moves on the server in the same transaction); deleting (85) refuses it.
 */
export default function PendingPage() {
  const { type = 'historical' } = useParams();
  const navigate = useNavigate();
  const can = usePermissionChecker();
  const queryClient = useQueryClient();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<ResultView | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const valid = (RESULT_TYPES as readonly string[]).includes(type);
  const params = { page, search: search || undefined };
  const list = useQuery({
    queryKey: resultKeys.pending(type, params),
    enabled: valid,
    queryFn: async () => (await api.get<Paged<ResultView>>(`/results/pending/${type}`, { params })).data,
    placeholderData: (previous) => previous,
  });
  useEffect(() => {
    if (list.isError)
      notifyError(
        errorEnvelope(list.error, ResultsMessages.fetchResultsFailed),
        ResultsMessages.fetchResultsFailed,
      );
  }, [list.isError, list.error]);
  useEffect(() => {
    if (!valid) navigate('/404?resource=page', { replace: true });
  }, [valid, navigate]);

  const canApprove = can([ResultsPerm.updateRecord]);
  const canDelete = can([ResultsPerm.deleteTrainingRecord]);
  const label = RESULT_TYPE_LABELS[type] ?? type;
  const refresh = () => queryClient.invalidateQueries({ queryKey: resultKeys.all });

  const approve = async (r: ResultView) => {
    setBusy(r.id);
    // GraphQL (spec 2 §7 "approving or deleting pending results"): web/src/app/graphql/README.md.
    await resultRowAction(() => approvePendingResult(r.id), {
      success: ResultsMessages.resultApproved,
      failure: ResultsMessages.fetchResultsFailed,
      after: refresh,
    });
    setBusy(null);
  };
  const remove = (r: ResultView) =>
    resultRowAction(() => deletePendingResult(r.id), {
      success: ResultsMessages.resultDeleted,
      failure: ResultsMessages.fetchResultsFailed,
      after: refresh,
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
          <span className="text-xs text-slate-600 md:hidden">
            {r.course.title} · {formatDay(r.completed_at)}
          </span>
        </span>
      ),
    },
    { key: 'course', header: 'Course', hideOnMobile: true, render: (r) => r.course.title },
    { key: 'completed', header: 'Completed', hideOnMobile: true, render: (r) => formatDay(r.completed_at) },
    {
      key: 'outcome',
      header: 'Outcome',
      hideOnMobile: true,
      render: (r) => (
        <span className="inline-flex items-center gap-2">
          {r.passed ? <Badge tone="success">Passed</Badge> : <Badge tone="danger">Not passed</Badge>}
          {r.score !== null ? <span className="text-slate-600">{r.score}%</span> : null}
        </span>
      ),
    },
    {
      key: 'evidence',
      header: 'Evidence',
      hideOnMobile: true,
      render: (r) =>
        r.evidence ? (
          <a
            className="focus-ring rounded text-primary-800 underline"
            href={buildUrl(`/results/${r.id}/evidence`)}
            download
          >
            {r.evidence.name}
          </a>
        ) : (
          '—'
        ),
    },
    { key: 'by', header: 'Submitted by', hideOnMobile: true, render: (r) => r.created_by?.name ?? '—' },
  ];
  const empty = list.isError ? (
    <EmptyState
      title={ResultsMessages.fetchResultsFailed}
      description={errorEnvelope(list.error, 'Please try again.').message}
    />
  ) : (
    <EmptyState
      title="Nothing waiting for approval"
      description={`${label} results that need approving will appear here.`}
    />
  );

  return (
    <div>
      <PageHeader
        title={`Pending ${label.toLowerCase()} results`}
        description="Results submitted for approval. Approved results count towards compliance at once."
      />
      <Card padded={false}>
        <div className="flex flex-col gap-3 border-b border-slate-200 p-4 sm:flex-row sm:items-end sm:justify-between">
          <SearchInput
            label="Search pending results"
            placeholder="User or course…"
            value={search}
            onSearch={(s) => {
              setSearch(s);
              setPage(1);
            }}
          />
          <div className="sm:w-56">
            <Select
              label="Result type"
              hideLabel
              options={RESULT_TYPES.map((t) => ({ value: t, label: RESULT_TYPE_LABELS[t] ?? t }))}
              value={type}
              onChange={(e) => {
                setPage(1);
                navigate(`/results/pending/${e.target.value}`);
              }}
            />
          </div>
        </div>
        <DataTable
          caption={`Pending ${label} results`}
          columns={columns}
          rows={list.data?.data}
          rowKey={(r) => r.id}
          loading={list.isLoading}
          empty={empty}
          rowActions={
            canApprove || canDelete
              ? (r) => (
                  <>
                    {canApprove ? (
                      <Button
                        size="sm"
                        loading={busy === r.id}
                        onClick={() => void approve(r)}
                        aria-label={`Approve the result of ${r.user.name}`}
                      >
                        Approve
                      </Button>
                    ) : null}
                    {canDelete ? (
                      <Button
                        size="sm"
                        variant="ghost"
                        onClick={() => setDeleting(r)}
                        aria-label={`Delete the result of ${r.user.name}`}
                      >
                        Delete
                      </Button>
                    ) : null}
                  </>
                )
              : undefined
          }
        />
        <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Pending result pages" />
      </Card>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this pending result?"
        message={
          deleting ? `${deleting.user.name}’s ${deleting.course.title} result will not be counted.` : null
        }
        onConfirm={() => (deleting ? remove(deleting) : undefined)}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

import { formatDateTime, type TaskKind, type TaskStatus, type TaskView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope } from '../entities/shared';
import { download } from '../reports/api';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  ConfirmDialog,
  EmptyState,
  PageHeader,
  Pagination,
  Spinner,
} from '../ui';
import { dismissTask, isActive, taskKeys, useTasks } from './api';

/**
 * /tasks-in-progress (issue 18): every long job the user started (exports, e-mailed reports, imports, bulk
 * events, bulk attempts) with its progress, its result or its error. The list polls while anything on it runs.
 */
export const KIND_LABELS: Record<TaskKind, string> = {
  import: 'Import',
  export: 'Export',
  emailed_report: 'E-mailed report',
  bulk_attempts: 'Courses started for people',
  bulk_events: 'Events added in bulk',
  other: 'Task',
};

export const STATUS_LABELS: Record<TaskStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: 'Waiting to start', tone: 'neutral' },
  running: { label: 'In progress', tone: 'primary' },
  done: { label: 'Done', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'warning' },
};

const ICON_PATHS: Record<TaskKind, string> = {
  import: 'M12 3v12m0 0l-4-4m4 4l4-4M4 17v2a2 2 0 002 2h12a2 2 0 002-2v-2',
  export: 'M12 21V9m0 0l-4 4m4-4l4 4M4 7V5a2 2 0 012-2h12a2 2 0 012 2v2',
  emailed_report: 'M3 7l9 6 9-6M4 5h16a1 1 0 011 1v12a1 1 0 01-1 1H4a1 1 0 01-1-1V6a1 1 0 011-1z',
  bulk_attempts: 'M12 6v12m6-6H6M4 4h16v16H4z',
  bulk_events: 'M8 3v4m8-4v4M4 9h16M5 5h14a1 1 0 011 1v13a1 1 0 01-1 1H5a1 1 0 01-1-1V6a1 1 0 011-1z',
  other: 'M12 8v4l3 2M12 21a9 9 0 100-18 9 9 0 000 18z',
};

function KindIcon({ kind }: { kind: TaskKind }) {
  return (
    <span className="flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-primary-100 text-primary-800">
      <svg
        viewBox="0 0 24 24"
        className="h-5 w-5"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        aria-hidden="true"
      >
        <path d={ICON_PATHS[kind] ?? ICON_PATHS.other} strokeLinecap="round" strokeLinejoin="round" />
      </svg>
    </span>
  );
}

/** done of total as a bar; without a total (not counted yet) an indeterminate bar that says so. */
export function TaskProgress({ task }: { task: TaskView }) {
  const { done, total } = task.progress;
  const known = total !== null && total > 0;
  const percent = known ? Math.min(100, Math.round((done / total) * 100)) : null;
  const text = known
    ? `${done.toLocaleString('en-GB')} of ${total.toLocaleString('en-GB')}`
    : task.status === 'queued'
      ? 'Waiting for its turn'
      : 'Working on it';
  return (
    <div className="w-full">
      <div
        role="progressbar"
        aria-label={`Progress of ${task.title}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent ?? undefined}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded-full bg-slate-200"
      >
        {percent !== null ? (
          <div
            className="h-full rounded-full bg-primary-600 transition-all"
            style={{ width: `${percent}%` }}
          />
        ) : (
          <div className="h-full w-1/3 animate-pulse rounded-full bg-primary-400" />
        )}
      </div>
      <p className="mt-1 text-xs text-slate-600">{text}</p>
    </div>
  );
}

function TaskOutcome({ task }: { task: TaskView }) {
  const result = task.result;
  if (task.status === 'failed')
    return (
      <p className="text-sm text-danger-800" role="status">
        {task.error ?? 'This task could not be finished.'}
      </p>
    );
  if (task.status !== 'done' || !result) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {result.summary ? <p className="w-full text-sm text-slate-700">{result.summary}</p> : null}
      {result.file ? (
        <Button
          size="sm"
          onClick={() =>
            void download(
              () => api.get<Blob>(`/tasks/${task.uuid}/download`),
              result.file?.filename ?? 'download',
              'The file could not be downloaded.',
            )
          }
          aria-label={`Download ${result.file.filename}`}
        >
          Download
        </Button>
      ) : null}
      {result.link ? (
        <Link to={result.link} className="focus-ring rounded text-sm font-medium text-primary-800 underline">
          Open
        </Link>
      ) : null}
    </div>
  );
}

function TaskCard({ task, onDismiss }: { task: TaskView; onDismiss: (t: TaskView) => void }) {
  const status = STATUS_LABELS[task.status];
  const active = isActive(task);
  return (
    <li
      className="flex gap-3 border-b border-slate-100 p-4 last:border-b-0"
      data-testid="task"
      data-status={task.status}
    >
      <KindIcon kind={task.kind} />
      <div className="min-w-0 flex-1 space-y-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="text-xs font-medium uppercase tracking-wide text-slate-500">
              {KIND_LABELS[task.kind]}
            </p>
            <p className="break-words font-medium text-slate-900">{task.title}</p>
          </div>
          <Badge tone={status.tone}>{status.label}</Badge>
        </div>
        {active ? <TaskProgress task={task} /> : null}
        <TaskOutcome task={task} />
        <div className="flex flex-wrap items-center justify-between gap-2">
          <p className="text-xs text-slate-600">
            Started {formatDateTime(task.created_at, undefined, '—')}
            {task.finished_at ? ` · Finished ${formatDateTime(task.finished_at, undefined, '—')}` : ''}
          </p>
          {task.status === 'running' ? null : (
            <Button size="sm" variant="secondary" onClick={() => onDismiss(task)}>
              {task.status === 'queued' ? 'Cancel' : 'Dismiss'}
            </Button>
          )}
        </div>
      </div>
    </li>
  );
}

export default function TasksPage() {
  const [page, setPage] = useState(1);
  const query = useTasks(page);
  const client = useQueryClient();
  const [confirming, setConfirming] = useState<TaskView | null>(null);
  const tasks = query.data?.data ?? [];

  const confirm = async () => {
    if (!confirming) return;
    const failure =
      confirming.status === 'queued'
        ? 'The task could not be cancelled.'
        : 'The task could not be dismissed.';
    try {
      const res = await dismissTask(confirming.uuid);
      if (res.message) notifySuccess(res.message);
    } catch (error) {
      notifyError(errorEnvelope(error, failure), failure);
    } finally {
      await client.invalidateQueries({ queryKey: taskKeys.all });
    }
  };

  return (
    <div className="space-y-4">
      <PageHeader
        title="Tasks in progress"
        description="Reports, exports, imports and other jobs you started. They carry on while you use the rest of the app."
      />
      <Card padded={false}>
        {query.isPending ? (
          <div className="flex justify-center p-10">
            <Spinner label="Loading your tasks" />
          </div>
        ) : query.isError ? (
          <p className="p-6 text-sm text-danger-800">Your tasks could not be loaded. Please try again.</p>
        ) : tasks.length === 0 ? (
          <EmptyState
            title="No tasks yet"
            description="When you ask for an e-mailed report, an export or an import, or start a course for several people, it shows here with its progress and its result."
          />
        ) : (
          <ul aria-label="Your tasks">
            {tasks.map((t) => (
              <TaskCard key={t.uuid} task={t} onDismiss={setConfirming} />
            ))}
          </ul>
        )}
      </Card>
      {query.data && query.data.meta.last_page > 1 ? (
        <Pagination meta={query.data.meta} onPageChange={setPage} label="Tasks pages" />
      ) : null}
      <ConfirmDialog
        open={confirming !== null}
        title={confirming?.status === 'queued' ? 'Cancel this task?' : 'Dismiss this task?'}
        message={
          confirming?.status === 'queued'
            ? `"${confirming.title}" has not started yet. Cancelling it means it will not be done.`
            : `"${confirming?.title ?? ''}" will be removed from this list${confirming?.result?.file ? ', with its file' : ''}.`
        }
        confirmLabel={confirming?.status === 'queued' ? 'Cancel task' : 'Dismiss'}
        cancelLabel={confirming?.status === 'queued' ? 'Keep it' : 'Cancel'}
        onConfirm={confirm}
        onClose={() => setConfirming(null)}
      />
    </div>
  );
}

import { PresetMessages, type ReportSchedule } from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api, type Envelope } from '../app/api';
import { useAuth } from '../app/auth';
import { Modal } from '../app/Modal';
import { hideModal, showModal } from '../app/modal';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, LoadError } from '../entities/shared';
import {
  Badge,
  Button,
  ButtonLink,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  EmptyState,
  PageHeader,
} from '../ui';
import { fetchPresets, fetchSchedules, SCHEDULES } from './api';
import { formatWhen, LABELS, scheduleSummary } from './logic';
import { RowList } from './RowList';
import { ScheduleForm } from './ScheduleForm';

const MODAL = 'report-schedule-form';

function LastRun({ s }: { s: ReportSchedule }) {
  if (!s.last_status) return <span className="text-sm text-slate-600">Not run yet</span>;
  const tone = s.last_status === 'sent' ? 'success' : s.last_status === 'failed' ? 'danger' : 'warning';
  const label = s.last_status === 'sent' ? 'Sent' : s.last_status === 'failed' ? 'Failed' : 'Queued';
  return (
    <span className="flex flex-col gap-1">
      <span className="flex flex-wrap items-center gap-2">
        <Badge tone={tone}>{label}</Badge>
        {s.last_run_at ? <span className="text-xs text-slate-600">{formatWhen(s.last_run_at)}</span> : null}
      </span>
      {s.last_status === 'failed' && s.last_error ? (
        <span className="max-w-xs text-xs text-danger-700">{s.last_error}</span>
      ) : null}
    </span>
  );
}

/**
 * `/reports/schedules` (permission 117): the caller's schedules with next run, last run and its error; create and
 * edit in a modal, pause or resume, "Run now" (queues one run at once), delete after a confirm. `?preset=<id>`
 * opens the form for that preset (the presets page links here).
 */
export default function SchedulesPage() {
  const queryClient = useQueryClient();
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const [page, setPage] = useState(1);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const [busyId, setBusyId] = useState<number | null>(null);

  const list = useQuery({
    queryKey: ['report-schedules', { page }],
    queryFn: () => fetchSchedules({ page }),
    placeholderData: (previous) => previous,
    // A queued run finishes in the background: look again while one is pending.
    refetchInterval: (q) => (q.state.data?.data.some((s) => s.last_status === 'queued') ? 5000 : false),
  });
  const presets = useQuery({
    queryKey: ['report-presets', { page: 1, per_page: 100 }],
    queryFn: () => fetchPresets({ page: 1, per_page: 100 }),
  });
  useEffect(() => {
    if (list.isError)
      notifyError(
        errorEnvelope(list.error, PresetMessages.failedToFetchSchedules),
        PresetMessages.failedToFetchSchedules,
      );
  }, [list.isError, list.error]);
  useEffect(() => {
    if (presets.isError)
      notifyError(errorEnvelope(presets.error, PresetMessages.failedToFetch), PresetMessages.failedToFetch);
  }, [presets.isError, presets.error]);

  const preselect = Number(params.get('preset')) || undefined;
  useEffect(() => {
    if (preselect) showModal(MODAL, { schedule: null, presetId: preselect });
  }, [preselect]);
  const closeForm = () => {
    hideModal(MODAL);
    if (params.has('preset')) setParams({}, { replace: true });
  };

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['report-schedules'] });
  const save = async (schedule: ReportSchedule | null, body: unknown) => {
    const res = schedule
      ? await api.patch<Envelope<ReportSchedule>>(`${SCHEDULES}/${schedule.id}`, body)
      : await api.post<Envelope<ReportSchedule>>(SCHEDULES, body);
    notifySuccess(
      res.data.message ?? (schedule ? PresetMessages.scheduleUpdated : PresetMessages.scheduleCreated),
    );
    closeForm();
    await refresh();
  };
  const act = async (s: ReportSchedule, action: 'run' | 'pause' | 'resume') => {
    setBusyId(s.id);
    try {
      const res =
        action === 'run'
          ? await api.post<Envelope<ReportSchedule>>(`${SCHEDULES}/${s.id}/run`)
          : await api.patch<Envelope<ReportSchedule>>(`${SCHEDULES}/${s.id}`, {
              active: action === 'resume',
            });
      notifySuccess(
        action === 'run'
          ? (res.data.message ?? PresetMessages.scheduleQueued)
          : action === 'pause'
            ? 'Schedule paused.'
            : 'Schedule resumed.',
      );
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, 'Something went wrong please try again or contact support.'), '');
    } finally {
      setBusyId(null);
    }
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      const res = await api.delete<{ message?: string }>(`${SCHEDULES}/${deleting.id}`);
      notifySuccess(res.data?.message ?? PresetMessages.scheduleDeleted);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, 'Could not delete the schedule.'), 'Could not delete the schedule.');
      throw error;
    }
  };
  const hasPresets = (presets.data?.data.length ?? 0) > 0;
  const openNew = () => showModal(MODAL, { schedule: null });

  const columns: Column<ReportSchedule>[] = [
    {
      key: 'preset',
      header: 'Preset',
      render: (s) => (
        <span className="flex flex-col">
          <span className="font-medium text-slate-900">{s.preset.name}</span>
          <span className="text-xs text-slate-600">
            {LABELS.report_type[s.preset.report_type]} · {s.format} · {s.entity.name}
          </span>
        </span>
      ),
    },
    {
      key: 'when',
      header: 'When',
      render: (s) => (
        <span className="flex flex-col">
          <span>{scheduleSummary(s)}</span>
          <span className="text-xs text-slate-600">{s.timezone.replaceAll('_', ' ')}</span>
          {s.active ? null : (
            <span>
              <Badge tone="warning">Paused</Badge>
            </span>
          )}
        </span>
      ),
    },
    {
      key: 'recipients',
      header: 'Recipients',
      hideOnMobile: true,
      render: (s) => (
        <span className="break-all text-sm">
          {s.recipients.slice(0, 2).join(', ')}
          {s.recipients.length > 2 ? ` +${s.recipients.length - 2}` : ''}
        </span>
      ),
    },
    { key: 'next', header: 'Next run', hideOnMobile: true, render: (s) => formatWhen(s.next_run_at) },
    { key: 'last', header: 'Last run', render: (s) => <LastRun s={s} /> },
  ];

  return (
    <div>
      <PageHeader
        title="Report schedules"
        description="Presets e-mailed as PDF or Excel on a regular schedule."
        breadcrumbs={[
          { label: 'Reports' },
          { label: 'Presets', to: '/reports/presets' },
          { label: 'Schedules' },
        ]}
        actions={
          <div className="flex flex-wrap gap-2">
            <ButtonLink to="/reports/presets" variant="secondary">
              Presets
            </ButtonLink>
            {hasPresets ? <Button onClick={openNew}>Add schedule</Button> : null}
          </div>
        }
      />
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback={PresetMessages.failedToFetchSchedules}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Card padded={false}>
          <RowList
            caption="Report schedules"
            columns={columns}
            rows={list.data?.data}
            rowKey={(s) => s.id}
            loading={list.isLoading}
            card={(s) => (
              <div className="space-y-1">
                <p className="font-medium text-slate-900">{s.preset.name}</p>
                <p className="text-sm text-slate-700">
                  {scheduleSummary(s)} ({s.timezone.replaceAll('_', ' ')}) · {s.format}
                  {s.active ? '' : ' · '}
                  {s.active ? null : <Badge tone="warning">Paused</Badge>}
                </p>
                <p className="text-xs text-slate-600">Next run: {formatWhen(s.next_run_at)}</p>
                <LastRun s={s} />
              </div>
            )}
            actions={(s) => (
              <>
                <Button
                  size="sm"
                  variant="ghost"
                  loading={busyId === s.id}
                  onClick={() => void act(s, 'run')}
                  aria-label={`Run ${s.preset.name} now`}
                >
                  Run now
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  disabled={busyId === s.id}
                  onClick={() => void act(s, s.active ? 'pause' : 'resume')}
                  aria-label={`${s.active ? 'Pause' : 'Resume'} ${s.preset.name}`}
                >
                  {s.active ? 'Pause' : 'Resume'}
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => showModal(MODAL, { schedule: s })}
                  aria-label={`Edit schedule of ${s.preset.name}`}
                >
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-danger-700"
                  onClick={() => setDeleting(s)}
                  aria-label={`Delete schedule of ${s.preset.name}`}
                >
                  Delete
                </Button>
              </>
            )}
            empty={
              <EmptyState
                title="No schedules yet"
                description={
                  hasPresets
                    ? 'Schedule a preset to have its report e-mailed daily, weekly or monthly.'
                    : 'Save a report preset first, then schedule it here.'
                }
                action={
                  hasPresets ? (
                    <Button onClick={openNew}>Add schedule</Button>
                  ) : (
                    <ButtonLink to="/reports/presets">Go to presets</ButtonLink>
                  )
                }
              />
            }
          />
          <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Schedule pages" />
        </Card>
      )}
      <Modal<{ schedule: ReportSchedule | null; presetId?: number }>
        name={MODAL}
        title="Report schedule"
        width="680px"
        scrollable
      >
        {(data) =>
          data && !presets.data ? (
            presets.isError ? (
              <p className="text-sm text-danger-700">{PresetMessages.failedToFetch}</p>
            ) : (
              <p className="text-sm text-slate-600">Loading presets…</p>
            )
          ) : data ? (
            <ScheduleForm
              key={data.schedule?.id ?? `new-${data.presetId ?? ''}`}
              schedule={data.schedule}
              presets={presets.data?.data ?? []}
              presetId={data.presetId}
              email={user?.email}
              onSave={(body) => save(data.schedule, body)}
              onCancel={closeForm}
            />
          ) : null
        }
      </Modal>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete schedule?"
        message={
          deleting ? (
            <>
              The schedule of <strong>{deleting.preset.name}</strong> will be deleted; nothing more will be
              sent. The preset stays.
            </>
          ) : null
        }
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

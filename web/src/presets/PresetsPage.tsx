import {
  type ExportFormat,
  MatrixPerm,
  PRESET_ANY_OF,
  PRESET_PERMISSIONS,
  PresetMessages,
  type ReportPreset,
  ReportsMessages,
} from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useActingAs } from '../app/acting-as';
import { api, type Envelope } from '../app/api';
import { useAuth, usePermissionChecker } from '../app/auth';
import { Modal } from '../app/Modal';
import { hideModal, showModal } from '../app/modal';
import { notifyError, notifySuccess } from '../app/notifications';
import { errorEnvelope, LoadError } from '../entities/shared';
import { download } from '../reports/api';
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
  SearchInput,
} from '../ui';
import { fetchPresets, PRESETS, runPreset } from './api';
import { LABELS, presetSummary } from './logic';
import { PresetForm } from './PresetForm';
import { RowList } from './RowList';

const MODAL = 'report-preset-form';

/**
 * `/reports/presets` (spec 2 §2, §7): the caller's saved report filters, paged; create and edit every field of
 * spec 2 §3 in a modal; delete after a confirm (its schedules go with it). A failed load shows
 * 'Failed to fetch report preset.' (§8).
 */
export default function PresetsPage() {
  const queryClient = useQueryClient();
  const can = usePermissionChecker();
  const { user } = useAuth();
  const actingAs = useActingAs();
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [deleting, setDeleting] = useState<ReportPreset | null>(null);

  const list = useQuery({
    queryKey: ['report-presets', { page, search }],
    queryFn: () => fetchPresets({ page, search: search || undefined }),
    placeholderData: (previous) => previous,
  });
  useEffect(() => {
    if (list.isError)
      notifyError(errorEnvelope(list.error, PresetMessages.failedToFetch), PresetMessages.failedToFetch);
  }, [list.isError, list.error]);

  const refresh = () => queryClient.invalidateQueries({ queryKey: ['report-presets'] });
  const currentEntity = actingAs ?? (user ? user.primary_entity : null);
  const canKeep = can([...PRESET_ANY_OF], 'any');
  const canSchedule = can([PRESET_PERMISSIONS.schedules]);

  const save = async (preset: ReportPreset | null, body: unknown) => {
    const res = preset
      ? await api.patch<Envelope<ReportPreset>>(`${PRESETS}/${preset.id}`, body)
      : await api.post<Envelope<ReportPreset>>(PRESETS, body);
    notifySuccess(res.data.message ?? (preset ? PresetMessages.updated : PresetMessages.created));
    hideModal(MODAL);
    await refresh();
  };
  const remove = async () => {
    if (!deleting) return;
    try {
      const res = await api.delete<{ message?: string }>(`${PRESETS}/${deleting.id}`);
      notifySuccess(res.data?.message ?? PresetMessages.deleted);
      await refresh();
    } catch (error) {
      notifyError(errorEnvelope(error, 'Could not delete the preset.'), 'Could not delete the preset.');
      throw error;
    }
  };
  const openNew = () => showModal(MODAL, { preset: null });
  // Run a preset now as a file (POST /report): the matrix needs 12 and 15 (XLSX) or 14 (PDF), certificates 7.
  const [running, setRunning] = useState<string | null>(null);
  const canRun = (p: ReportPreset, format: ExportFormat) =>
    p.report_type === 'matrix'
      ? can([MatrixPerm.report, format === 'PDF' ? MatrixPerm.pdf : MatrixPerm.xlsx])
      : can([PRESET_PERMISSIONS.userCertificates]);
  const run = async (p: ReportPreset, format: ExportFormat) => {
    setRunning(`${p.id}:${format}`);
    await download(
      () => runPreset(p, format),
      `${p.report_type}.${format.toLowerCase()}`,
      ReportsMessages.fetchFailed,
    );
    setRunning(null);
  };

  const columns: Column<ReportPreset>[] = [
    {
      key: 'name',
      header: 'Name',
      render: (p) => (
        <span className="flex flex-col">
          <span className="font-medium text-slate-900">{p.name}</span>
          <span className="text-xs text-slate-600">{presetSummary(p)}</span>
        </span>
      ),
    },
    {
      key: 'type',
      header: 'Report',
      render: (p) => (
        <Badge tone={p.report_type === 'matrix' ? 'primary' : 'neutral'}>
          {LABELS.report_type[p.report_type]}
        </Badge>
      ),
    },
    { key: 'entity', header: 'For', hideOnMobile: true, render: (p) => p.entity.name },
    {
      key: 'schedules',
      header: 'Schedules',
      hideOnMobile: true,
      render: (p) => (p.schedules_count ? String(p.schedules_count) : 'None'),
    },
  ];

  return (
    <div>
      <PageHeader
        title="Report presets"
        description="Saved report filters. Use one to run a report again, or schedule it to be e-mailed."
        breadcrumbs={[{ label: 'Reports' }, { label: 'Presets' }]}
        actions={
          <div className="flex flex-wrap gap-2">
            {canSchedule ? (
              <ButtonLink to="/reports/schedules" variant="secondary">
                Schedules
              </ButtonLink>
            ) : null}
            {canKeep ? <Button onClick={openNew}>Add preset</Button> : null}
          </div>
        }
      />
      {list.isError && !list.data ? (
        <LoadError
          error={list.error}
          fallback={PresetMessages.failedToFetch}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <Card padded={false}>
          <div className="border-b border-slate-200 p-4">
            <SearchInput
              label="Search presets"
              onSearch={(v) => {
                setSearch(v);
                setPage(1);
              }}
            />
          </div>
          <RowList
            caption="Report presets"
            columns={columns}
            rows={list.data?.data}
            rowKey={(p) => p.id}
            loading={list.isLoading}
            card={(p) => (
              <div className="space-y-1">
                <p className="font-medium text-slate-900">{p.name}</p>
                <p className="text-sm text-slate-700">
                  {LABELS.report_type[p.report_type]} · {p.entity.name}
                </p>
                <p className="text-xs text-slate-600">{presetSummary(p)}</p>
              </div>
            )}
            actions={(p) => (
              <>
                {(['XLSX', 'PDF'] as const)
                  .filter((format) => canRun(p, format))
                  .map((format) => (
                    <Button
                      key={format}
                      size="sm"
                      variant="ghost"
                      loading={running === `${p.id}:${format}`}
                      onClick={() => void run(p, format)}
                      aria-label={`Download ${p.name} as ${format}`}
                    >
                      {format}
                    </Button>
                  ))}
                {canSchedule ? (
                  <ButtonLink
                    to={`/reports/schedules?preset=${p.id}`}
                    size="sm"
                    variant="ghost"
                    aria-label={`Schedule ${p.name}`}
                  >
                    Schedule
                  </ButtonLink>
                ) : null}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => showModal(MODAL, { preset: p })}
                  aria-label={`Edit ${p.name}`}
                >
                  Edit
                </Button>
                <Button
                  size="sm"
                  variant="ghost"
                  className="text-danger-700"
                  onClick={() => setDeleting(p)}
                  aria-label={`Delete ${p.name}`}
                >
                  Delete
                </Button>
              </>
            )}
            empty={
              search ? (
                <EmptyState title="No presets match" description="Try another search." />
              ) : (
                <EmptyState
                  title="No report presets yet"
                  description="Save the filters you use often, then run or schedule them in one click."
                  action={canKeep ? <Button onClick={openNew}>Add preset</Button> : undefined}
                />
              )
            }
          />
          <CardPagination meta={list.data?.meta} onPageChange={setPage} label="Preset pages" />
        </Card>
      )}
      <Modal<{ preset: ReportPreset | null }> name={MODAL} title="Report preset" width="860px" scrollable>
        {(data) =>
          data ? (
            <PresetForm
              key={data.preset?.id ?? 'new'}
              preset={data.preset}
              entity={data.preset ? data.preset.entity : currentEntity}
              actingAsId={actingAs?.id ?? null}
              onSave={(body) => save(data.preset, body)}
              onCancel={() => hideModal(MODAL)}
            />
          ) : null
        }
      </Modal>
      <ConfirmDialog
        open={deleting !== null}
        title="Delete preset?"
        message={
          deleting ? (
            <>
              <strong>{deleting.name}</strong> will be deleted
              {deleting.schedules_count
                ? `, with its ${deleting.schedules_count} ${deleting.schedules_count === 1 ? 'schedule' : 'schedules'}.`
                : '.'}
            </>
          ) : null
        }
        onConfirm={remove}
        onClose={() => setDeleting(null)}
      />
    </div>
  );
}

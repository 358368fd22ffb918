import {
  formatDate,
  IMPORT_COLUMNS,
  type ImportErrorView,
  ImporterPerm,
  type ImportKind,
  type ImportRowView,
  type ImportView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useAddressFilters } from '../app/address-filters';
import { usePermission } from '../app/auth';
import { notifyError, notifySuccess } from '../app/notifications';
import { useWhitelabel } from '../app/whitelabel';
import { errorEnvelope } from '../entities/shared';
import {
  Badge,
  type BadgeTone,
  Button,
  Card,
  CardPagination,
  type Column,
  ConfirmDialog,
  DataTable,
  EmptyState,
  PageHeader,
  Select,
  TextArea,
} from '../ui';
import { organisationWord } from '../whitelabel/words';
import {
  applyImport,
  errorsCsvUrl,
  importerKeys,
  isBusy,
  resolveError,
  templateUrl,
  undoImport,
  uploadImport,
  useImportErrors,
  useImportRun,
  useImports,
} from './api';

const STATUS: Record<ImportView['status'], { label: string; tone: BadgeTone }> = {
  planning: { label: 'Checking', tone: 'primary' },
  planned: { label: 'Planned', tone: 'warning' },
  applying: { label: 'Applying', tone: 'primary' },
  applied: { label: 'Applied', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  undoing: { label: 'Undoing', tone: 'primary' },
  undone: { label: 'Undone', tone: 'neutral' },
};

const seconds = (ms: number | null) =>
  ms === null ? '–' : ms < 1000 ? 'under a second' : `${Math.round(ms / 1000)} s`;

/**
 * `/importer/logs` (99): every import run with its counts, the wizard ("New import": kind, template, upload, plan,
 * apply, progress, undo) and a run's errors, resolvable with a note (100). `?import=<uuid>` opens a run.
 */
export default function ImporterLogsPage() {
  const wl = useWhitelabel();
  const filters = useAddressFilters(['import', 'unresolved']);
  const page = Number(filters.params.get('page')) || 1;
  const unresolved = filters.params.get('unresolved') === '1';
  const openUuid = filters.params.get('import');
  const list = useImports({ page, unresolved });
  const [wizard, setWizard] = useState(false);

  const columns: Column<ImportView>[] = [
    {
      key: 'file',
      header: 'File',
      render: (i) => (
        <span className="flex flex-col gap-0.5">
          <button
            type="button"
            className="focus-ring rounded text-left font-medium text-primary-800 wrap-anywhere hover:underline"
            onClick={() => filters.set({ import: i.uuid })}
          >
            {i.file_name}
          </button>
          <span className="text-xs text-slate-600">
            {i.kind === 'users' ? 'People' : 'Training records'} · {i.created_by?.name ?? 'Someone'} ·{' '}
            {formatDate(i.created_at)}
          </span>
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      render: (i) => <Badge tone={STATUS[i.status].tone}>{STATUS[i.status].label}</Badge>,
    },
    {
      key: 'counts',
      header: 'Created / updated / unchanged / errors',
      hideOnMobile: true,
      render: (i) =>
        `${i.status === 'applied' || i.status === 'undone' ? i.counts.created : i.counts.create} / ${
          i.status === 'applied' || i.status === 'undone' ? i.counts.updated : i.counts.update
        } / ${i.counts.unchanged} / ${i.counts.errors}${i.counts.unresolved_errors ? ` (${i.counts.unresolved_errors} open)` : ''}`,
    },
    { key: 'duration', header: 'Duration', hideOnMobile: true, render: (i) => seconds(i.duration_ms) },
  ];

  return (
    <div className="space-y-6">
      <PageHeader
        title="Importer logs"
        description={`Import people and training records from a CSV file into your ${organisationWord(wl).toLowerCase()}s. Every file is checked first; nothing changes until you apply the plan.`}
        actions={<Button onClick={() => setWizard(true)}>New import</Button>}
      />
      {wizard ? (
        <NewImport
          onClose={() => setWizard(false)}
          onPlanned={(uuid) => {
            setWizard(false);
            filters.set({ import: uuid });
          }}
        />
      ) : null}
      {openUuid ? <ImportRun uuid={openUuid} onClose={() => filters.set({ import: null })} /> : null}
      <Card padded={false} data-testid="imports-list">
        <div className="flex flex-wrap items-center gap-3 border-b border-slate-200 p-4">
          <label className="flex items-center gap-2 text-sm">
            <input
              type="checkbox"
              className="focus-ring h-4 w-4 rounded"
              checked={unresolved}
              onChange={(e) => filters.set({ unresolved: e.target.checked ? '1' : null })}
            />
            Only runs with unresolved errors
          </label>
        </div>
        {list.isError ? (
          <p role="alert" className="p-4 text-sm text-danger-800">
            {errorEnvelope(list.error, 'The imports could not be loaded.').message}
          </p>
        ) : (
          <DataTable
            caption="Import runs"
            columns={columns}
            rows={list.data?.data}
            rowKey={(i) => i.uuid}
            loading={list.isLoading}
            empty={
              <EmptyState
                title={unresolved ? 'No runs with unresolved errors' : 'No imports yet'}
                description={
                  unresolved
                    ? 'Every error has been resolved.'
                    : 'Start with "New import" and a CSV file of people or training records.'
                }
              />
            }
          />
        )}
        <CardPagination
          meta={list.data?.meta}
          onPageChange={(p) => filters.set({ page: String(p) })}
          label="Import runs"
        />
      </Card>
    </div>
  );
}

function NewImport({ onClose, onPlanned }: { onClose: () => void; onPlanned: (uuid: string) => void }) {
  const queryClient = useQueryClient();
  const [kind, setKind] = useState<ImportKind>('users');
  const [file, setFile] = useState<File | null>(null);
  const [errors, setErrors] = useState<Record<string, string[]>>({});
  const [busy, setBusy] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!file) {
      setErrors({ file: ['Choose a CSV file to upload.'] });
      return;
    }
    setBusy(true);
    try {
      const res = await uploadImport(kind, file);
      await queryClient.invalidateQueries({ queryKey: importerKeys.all });
      if (res.message) notifySuccess(res.message);
      onPlanned(res.data.uuid);
    } catch (error) {
      const env = errorEnvelope(error, 'The file could not be uploaded.');
      setErrors(env.errors ?? {});
      if (!env.errors) notifyError(env, 'The file could not be uploaded.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card>
      <form className="space-y-4" onSubmit={submit} aria-label="New import">
        <h2 className="text-lg font-semibold">New import</h2>
        <Select
          label="What does the file hold?"
          value={kind}
          onChange={(e) => setKind(e.target.value as ImportKind)}
          options={[
            { value: 'users', label: 'People' },
            { value: 'training', label: 'Training records (also the ASC-WDS training file)' },
          ]}
          error={errors.kind}
        />
        <p className="text-sm text-slate-700 wrap-anywhere">
          Columns: {IMPORT_COLUMNS[kind].join(', ')}.{' '}
          <a
            className="focus-ring rounded font-medium text-primary-800 underline"
            href={templateUrl(kind)}
            download
          >
            Download a template CSV
          </a>
        </p>
        <div>
          <label htmlFor="import-file" className="block text-sm font-medium">
            CSV file (up to 50 MB)
          </label>
          <input
            id="import-file"
            type="file"
            accept=".csv,text/csv"
            className="mt-1 block w-full max-w-full text-sm"
            aria-describedby={errors.file ? 'import-file-error' : undefined}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          {errors.file ? (
            <p id="import-file-error" className="mt-1 text-sm text-danger-800" role="alert">
              {errors.file.join(' ')}
            </p>
          ) : null}
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? 'Checking…' : 'Check the file'}
          </Button>
          <Button type="button" variant="secondary" onClick={onClose}>
            Cancel
          </Button>
        </div>
      </form>
    </Card>
  );
}

function RowList({ title, rows }: { title: string; rows: ImportRowView[] }) {
  if (!rows.length) return null;
  return (
    <div>
      <h3 className="text-sm font-semibold">{title}</h3>
      <ul className="mt-1 space-y-1 text-sm">
        {rows.map((r) => (
          <li key={r.row_number} className="wrap-anywhere">
            Row {r.row_number}: {r.label}
            {r.changes
              ? Object.entries(r.changes).map(([field, c]) => (
                  <span key={field} className="block pl-4 text-slate-700">
                    {field.replace(/_/g, ' ')}: {c.from ?? '(blank)'} → {c.to ?? '(blank)'}
                  </span>
                ))
              : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function ImportRun({ uuid, onClose }: { uuid: string; onClose: () => void }) {
  const queryClient = useQueryClient();
  const run = useImportRun(uuid);
  const canResolve = usePermission([ImporterPerm.resolve]);
  const [errorPage, setErrorPage] = useState(1);
  const [openOnly, setOpenOnly] = useState(false);
  const errors = useImportErrors(uuid, { page: errorPage, unresolved: openOnly });
  const [confirmUndo, setConfirmUndo] = useState(false);
  const [resolving, setResolving] = useState<ImportErrorView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: importerKeys.all });
  const act = async (call: () => Promise<{ message?: string }>, fallback: string) => {
    try {
      const res = await call();
      if (res.message) notifySuccess(res.message);
    } catch (error) {
      notifyError(errorEnvelope(error, fallback), fallback);
    }
    await refresh();
  };
  if (run.isError)
    return (
      <Card>
        <p role="alert" className="text-sm text-danger-800">
          {errorEnvelope(run.error, 'This import could not be loaded.').message}
        </p>
        <Button variant="secondary" size="sm" onClick={onClose}>
          Close
        </Button>
      </Card>
    );
  const data = run.data;
  if (!data) return <Card>Loading the import…</Card>;
  const i = data.import;
  const errorColumns: Column<ImportErrorView>[] = [
    { key: 'row', header: 'Row', render: (e) => e.row_number },
    {
      key: 'message',
      header: 'Problem',
      render: (e) => (
        <span className="flex flex-col gap-0.5 wrap-anywhere">
          <span>
            <span className="font-medium">{e.column.replace(/_/g, ' ')}:</span> {e.message}
          </span>
          {e.resolved_at ? (
            <span className="text-xs text-slate-600">
              Resolved by {e.resolved_by?.name ?? 'someone'} on {formatDate(e.resolved_at)}: {e.note}
            </span>
          ) : null}
        </span>
      ),
    },
  ];
  return (
    <Card data-testid="import-run">
      <div className="space-y-4">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold wrap-anywhere">{i.file_name}</h2>
            <p className="text-sm text-slate-700">
              {i.kind === 'users' ? 'People' : 'Training records'} · {i.created_by?.name ?? 'Someone'} ·{' '}
              {formatDate(i.created_at)} ·{' '}
              <Badge tone={STATUS[i.status].tone}>{STATUS[i.status].label}</Badge>
            </p>
          </div>
          <Button variant="secondary" size="sm" onClick={onClose}>
            Close
          </Button>
        </div>
        {i.failure ? (
          <p role="alert" className="text-sm text-danger-800">
            {i.failure}
          </p>
        ) : null}
        {isBusy(i.status) ? (
          <div role="status" className="text-sm">
            {STATUS[i.status].label}: {i.progress?.done ?? 0}
            {i.progress?.total ? ` of ${i.progress.total}` : ''} rows
            {i.progress?.total ? (
              <progress className="mt-1 block w-full" max={i.progress.total} value={i.progress.done} />
            ) : null}
          </div>
        ) : null}
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-5" data-testid="import-counts">
          {(
            [
              ['Rows', i.counts.rows],
              ['To create', i.counts.create],
              ['To update', i.counts.update],
              ['Unchanged', i.counts.unchanged],
              ['With errors', i.counts.errors],
            ] as const
          ).map(([label, n]) => (
            <div key={label} className="rounded border border-slate-200 p-2">
              <dt className="text-slate-600">{label}</dt>
              <dd className="text-lg font-semibold">{n}</dd>
            </div>
          ))}
        </dl>
        {i.status === 'applied' || i.status === 'undone' ? (
          <p className="text-sm">
            Applied: {i.counts.created} created, {i.counts.updated} updated.
            {i.status === 'undone' && i.counts.kept
              ? ` ${i.counts.kept} people were kept on undo because they have since signed in or have training of their own.`
              : ''}
          </p>
        ) : null}
        <RowList title="First rows to create" rows={data.rows.create} />
        <RowList title="First rows to update (old → new)" rows={data.rows.update} />
        <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
          {i.status === 'planned' ? (
            <Button
              disabled={i.counts.create + i.counts.update === 0}
              onClick={() => act(() => applyImport(uuid), 'The import could not be applied.')}
            >
              {i.counts.create + i.counts.update === 0 ? 'Nothing to change' : 'Apply'}
            </Button>
          ) : null}
          {i.status === 'applied' || (i.status === 'failed' && i.planned_at !== null) ? (
            <Button variant="danger" onClick={() => setConfirmUndo(true)}>
              Undo this import
            </Button>
          ) : null}
          {i.counts.errors ? (
            <a
              className="focus-ring inline-flex items-center rounded text-sm font-medium text-primary-800 underline"
              href={errorsCsvUrl(uuid)}
              download
            >
              Download the errors (CSV)
            </a>
          ) : null}
        </div>
        {i.counts.errors ? (
          <div className="space-y-2">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h3 className="text-sm font-semibold">Errors</h3>
              <label className="flex items-center gap-2 text-sm">
                <input
                  type="checkbox"
                  className="focus-ring h-4 w-4 rounded"
                  checked={openOnly}
                  onChange={(e) => {
                    setOpenOnly(e.target.checked);
                    setErrorPage(1);
                  }}
                />
                Unresolved only
              </label>
            </div>
            <DataTable
              caption="Errors"
              columns={errorColumns}
              rows={errors.data?.data}
              rowKey={(e) => e.id}
              loading={errors.isLoading}
              rowActions={
                canResolve
                  ? (e) =>
                      e.resolved_at ? null : (
                        <Button
                          size="sm"
                          variant="secondary"
                          aria-label={`Resolve the error of row ${e.row_number}`}
                          onClick={() => setResolving(e)}
                        >
                          Resolve
                        </Button>
                      )
                  : undefined
              }
              empty={
                <EmptyState
                  title="No unresolved errors"
                  description="Every error of this run has been resolved."
                />
              }
            />
            <CardPagination meta={errors.data?.meta} onPageChange={setErrorPage} label="Errors" />
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={confirmUndo}
        title="Undo this import?"
        message="People it created are removed (kept if they have since signed in or have training of their own), people it changed get their earlier details back, and training records it added are deleted."
        confirmLabel="Undo the import"
        tone="danger"
        onConfirm={async () => {
          setConfirmUndo(false);
          await act(() => undoImport(uuid), 'The import could not be undone.');
        }}
        onClose={() => setConfirmUndo(false)}
      />
      {resolving ? (
        <ResolveForm
          uuid={uuid}
          error={resolving}
          onDone={() => {
            setResolving(null);
            void refresh();
          }}
        />
      ) : null}
    </Card>
  );
}

function ResolveForm({ uuid, error, onDone }: { uuid: string; error: ImportErrorView; onDone: () => void }) {
  const [note, setNote] = useState('');
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    try {
      const res = await resolveError(uuid, error.id, note);
      if (res.message) notifySuccess(res.message);
      onDone();
    } catch (err) {
      const env = errorEnvelope(err, 'The error could not be resolved.');
      setFieldErrors(env.errors ?? {});
      if (!env.errors) notifyError(env, 'The error could not be resolved.');
    }
  };
  return (
    <form
      className="mt-4 space-y-2 border-t border-slate-200 pt-4"
      onSubmit={submit}
      aria-label={`Resolve row ${error.row_number}`}
    >
      <TextArea
        label={`How was row ${error.row_number} resolved?`}
        value={note}
        onChange={(e) => setNote(e.target.value)}
        error={fieldErrors.note}
        rows={3}
      />
      <div className="flex gap-2">
        <Button type="submit">Mark as resolved</Button>
        <Button type="button" variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

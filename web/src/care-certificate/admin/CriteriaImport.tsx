import type {
  CriteriaImportResult,
  CriteriaImportRow,
  ErrorEnvelope,
  VersionGaps,
  VersionSummary,
} from '@cc/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api, type Envelope } from '../../app/api';
import { notifySuccess } from '../../app/notifications';
import { errorEnvelope, serverFieldErrors } from '../../entities/shared';
import { Badge, Button, Card, DataTable, FormError } from '../../ui';
import { ccKeys } from './api';

/** GET /care-certificate-versions/{id}/gaps: per standard, what is missing and where the official text is. */
export function useVersionGaps(id: number | null) {
  return useQuery({
    queryKey: [...ccKeys.all, 'gaps', id ?? 0],
    queryFn: async () =>
      (await api.get<Envelope<VersionGaps>>(`/care-certificate-versions/${id}/gaps`)).data.data,
    enabled: id !== null,
  });
}

/** "What is still missing": standards without criteria first, then letters and outcomes skipped; the sources. */
export function GapsCard({ gaps }: { gaps: VersionGaps }) {
  const lacking = gaps.standards.filter((s) => s.criteria_count === 0 || s.missing.length > 0);
  return (
    <Card title="What is still missing">
      <p className="text-sm text-slate-700">
        {gaps.complete
          ? 'Every standard has criteria, so a certificate on this version can be finished.'
          : `${gaps.standards_without_criteria.length} of ${gaps.standards.length} standards have no criteria yet (${gaps.standards_without_criteria.map((n) => `Standard ${n}`).join(', ')}): no certificate on this version can be finished until they are imported.`}{' '}
        Criteria imported here are the same for every organisation.
      </p>
      {gaps.sources.length ? (
        <p className="mt-2 text-sm text-slate-700">
          The official text is published by{' '}
          {gaps.sources.map((s) => (
            <a
              key={s.url}
              href={s.url}
              className="font-medium text-primary-800 underline"
              rel="noreferrer"
              target="_blank"
            >
              {s.label}
            </a>
          ))}
          .
        </p>
      ) : null}
      {lacking.length ? (
        <ul className="mt-3 divide-y divide-slate-100 text-sm">
          {lacking.map((s) => (
            <li key={s.number} className="py-2">
              <span className="font-medium text-slate-900">
                Standard {s.number}: {s.title}
              </span>{' '}
              {s.criteria_count === 0 ? <Badge tone="warning">No criteria</Badge> : null}
              {s.missing.length ? (
                <span className="block text-slate-700">Missing: {s.missing.join(', ')}</span>
              ) : null}
              {s.sources.map((src) => (
                <span key={src.label} className="block text-slate-600">
                  Where to find it:{' '}
                  <a href={src.url} className="text-primary-800 underline" rel="noreferrer" target="_blank">
                    {src.label}
                  </a>
                </span>
              ))}
            </li>
          ))}
        </ul>
      ) : null}
    </Card>
  );
}

const CHANGE_WORDS: Record<
  CriteriaImportRow['change'],
  { label: string; tone: 'success' | 'warning' | 'neutral' }
> = {
  added: { label: 'Added', tone: 'success' },
  changed: { label: 'Changed', tone: 'warning' },
  unchanged: { label: 'Unchanged', tone: 'neutral' },
};

/**
 * Import a version's criteria from a CSV or Excel file (super admin): Preview shows what would be added, changed or
 * left as it is, and nothing changes until Apply; a file with rows that do not fit the version is refused whole,
 * each row's problem listed.
 */
export function CriteriaImport({ version }: { version: VersionSummary }) {
  const queryClient = useQueryClient();
  const inputId = useId();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<CriteriaImportResult | null>(null);
  const [problems, setProblems] = useState<Partial<ErrorEnvelope> | null>(null);
  const [busy, setBusy] = useState<'preview' | 'apply' | null>(null);
  const send = async (apply: boolean) => {
    if (!file) return;
    setBusy(apply ? 'apply' : 'preview');
    setProblems(null);
    try {
      const form = new FormData();
      form.append('file', file);
      const path = `/care-certificate-versions/${version.id}/criteria-import${apply ? '' : '/preview'}`;
      const res = await api.upload<Envelope<CriteriaImportResult>>(path, form);
      if (apply) {
        notifySuccess(res.data.message ?? 'Criteria imported.');
        await queryClient.invalidateQueries({ queryKey: ccKeys.all });
        setPreview(null);
        setFile(null);
      } else setPreview(res.data.data);
    } catch (error) {
      const errors = serverFieldErrors(error);
      setProblems(
        Object.keys(errors).length
          ? { message: 'Nothing was imported: fix the file and try again.', errors }
          : errorEnvelope(error, 'The file could not be read.'),
      );
      setPreview(null);
    } finally {
      setBusy(null);
    }
  };
  const changes = preview ? preview.added + preview.changed : 0;
  return (
    <Card title="Import criteria">
      <p className="text-sm text-slate-700">
        A CSV or Excel (.xlsx) file with the columns <strong>code</strong> (like 1.2a),{' '}
        <strong>outcome</strong> (like 1.2, optionally followed by its title), <strong>wording</strong> and{' '}
        <strong>kind</strong> (knowledge, or observed when only an assessor’s observation at work evidences
        it); a <strong>version</strong> column is checked when present. Only codes of {version.code} are
        accepted. Criteria not in the file stay as they are.
      </p>
      <div className="mt-3 flex flex-wrap items-end gap-3">
        <div>
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-800">
            File
          </label>
          <input
            id={inputId}
            type="file"
            accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            className="mt-1.5 block max-w-full text-sm"
            onChange={(e) => {
              setFile(e.target.files?.[0] ?? null);
              setPreview(null);
              setProblems(null);
            }}
          />
        </div>
        <Button variant="secondary" disabled={!file || busy !== null} onClick={() => void send(false)}>
          {busy === 'preview' ? 'Reading…' : 'Preview'}
        </Button>
      </div>
      {problems ? (
        <div className="mt-3">
          <FormError error={problems} />
        </div>
      ) : null}
      {preview ? (
        <div className="mt-4 space-y-3">
          <p className="text-sm text-slate-800" aria-live="polite">
            <strong>{preview.added}</strong> to add, <strong>{preview.changed}</strong> to change,{' '}
            <strong>{preview.unchanged}</strong> unchanged
            {preview.outcomes_added.length ? `; new outcomes ${preview.outcomes_added.join(', ')}` : ''}.
            Nothing is changed until you apply it.
          </p>
          <DataTable
            caption="Rows of the file"
            rows={preview.rows}
            rowKey={(r) => r.row}
            columns={[
              { key: 'code', header: 'Code', render: (r) => <span className="font-medium">{r.code}</span> },
              {
                key: 'change',
                header: 'Change',
                render: (r) => (
                  <Badge tone={CHANGE_WORDS[r.change].tone}>{CHANGE_WORDS[r.change].label}</Badge>
                ),
              },
              {
                key: 'wording',
                header: 'Wording',
                render: (r) => (
                  <span>
                    {r.wording}
                    {r.kind === 'observed' ? (
                      <span className="block text-xs text-slate-600">Observed at work</span>
                    ) : null}
                    {r.before && r.before.wording !== r.wording ? (
                      <span className="block text-xs text-slate-600">Was: {r.before.wording}</span>
                    ) : null}
                    {r.before && r.before.kind !== r.kind ? (
                      <span className="block text-xs text-slate-600">Was: {r.before.kind}</span>
                    ) : null}
                  </span>
                ),
              },
            ]}
          />
          <div className="flex flex-wrap gap-3">
            <Button disabled={changes === 0 || busy !== null} onClick={() => void send(true)}>
              {busy === 'apply'
                ? 'Applying…'
                : changes === 0
                  ? 'Nothing to apply'
                  : `Apply ${changes} changes`}
            </Button>
            <Button variant="ghost" onClick={() => setPreview(null)}>
              Cancel
            </Button>
          </div>
        </div>
      ) : null}
    </Card>
  );
}

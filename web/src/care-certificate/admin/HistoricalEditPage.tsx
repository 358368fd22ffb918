import {
  CareCertificateMessages,
  CareCertificatePerm,
  type CertificateView,
  type FileEvidence,
  formatDateTime,
  HistoricalUpdate,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api, type Envelope, isApiError } from '../../app/api';
import { usePermission } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { useWhitelabel } from '../../app/whitelabel';
import {
  errorEnvelope,
  type FieldErrors,
  FormSection,
  LoadError,
  LoadingCard,
  SaveErrors,
  serverFieldErrors,
  zodFieldErrors,
} from '../../entities/shared';
import { download } from '../../reports/api';
import { Button, Card, ConfirmDialog, PageHeader } from '../../ui';
import { ccAction, uploadEvidence, useHistorical } from './api';
import { EvidenceFilesInput } from './EvidenceFiles';
import { HistoricalFields, type HistoricalForm, toHistoricalBody } from './HistoricalFields';
import { NoPermission } from './HistoricalPage';

export const toForm = (c: CertificateView): HistoricalForm => ({
  version_id: String(c.version.id),
  completed_on: c.completed_on ?? '',
  started_on: c.started_on ?? '',
  provider: c.provider ?? '',
  assessor_name: c.assessor_name ?? '',
  notes: c.notes ?? '',
});

/** Only the fields that changed (PATCH changes only what is sent). */
export function changedFields(before: HistoricalForm, after: HistoricalForm): Record<string, unknown> {
  const a = toHistoricalBody(before) as Record<string, unknown>;
  const b = toHistoricalBody(after) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(b)) if (a[key] !== b[key]) out[key] = b[key];
  return out;
}

/** The API path of a file's download address (the view gives it under /api). */
const apiPath = (url: string) => url.replace(/^https?:\/\/[^/]+/, '').replace(/^\/api(?=\/)/, '');

function FilesCard({ cert }: { cert: CertificateView }) {
  const queryClient = useQueryClient();
  const [adding, setAdding] = useState<File[]>([]);
  const [busy, setBusy] = useState(false);
  const [removing, setRemoving] = useState<FileEvidence | null>(null);
  const upload = async () => {
    setBusy(true);
    let ok = 0;
    for (const file of adding) {
      try {
        await uploadEvidence(cert.uuid, file, null);
        ok++;
      } catch (e) {
        notifyError(
          errorEnvelope(e, `${file.name} could not be uploaded.`),
          `${file.name} could not be uploaded.`,
        );
      }
    }
    if (ok) await ccAction(queryClient, async () => ({ data: {} }), CareCertificateMessages.evidenceAdded);
    setAdding([]);
    setBusy(false);
  };
  return (
    <Card title="Evidence files">
      {cert.files.length ? (
        <ul className="divide-y divide-slate-100" aria-label="Evidence files">
          {cert.files.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <button
                  type="button"
                  className="focus-ring rounded text-left text-sm font-medium break-all text-primary-800 hover:underline"
                  onClick={() =>
                    void download(
                      () => api.get<Blob>(apiPath(f.download_url)),
                      f.original_name,
                      'The file could not be downloaded.',
                    )
                  }
                >
                  {f.original_name}
                </button>
                <p className="text-xs text-slate-600">
                  {[f.description, f.added_by, formatDateTime(f.created_at)].filter(Boolean).join(' · ')}
                </p>
              </div>
              <Button size="sm" variant="ghost" onClick={() => setRemoving(f)}>
                Remove <span className="sr-only">{f.original_name}</span>
              </Button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-slate-600">
          No files yet. Add the certificate and anything that supports it.
        </p>
      )}
      <div className="mt-4 space-y-3 border-t border-slate-100 pt-4">
        <EvidenceFilesInput files={adding} onChange={setAdding} label="Add files" />
        {adding.length ? (
          <div className="flex justify-end">
            <Button loading={busy} onClick={() => void upload()}>
              Upload {adding.length === 1 ? 'file' : `${adding.length} files`}
            </Button>
          </div>
        ) : null}
      </div>
      <ConfirmDialog
        open={removing !== null}
        title="Remove this file?"
        message={removing ? `${removing.original_name} will no longer be evidence of this certificate.` : ''}
        confirmLabel="Remove"
        onClose={() => setRemoving(null)}
        onConfirm={async () => {
          if (!removing) return;
          await ccAction(
            queryClient,
            () => api.delete<Envelope<unknown>>(`/care-certificates/${cert.uuid}/evidence/${removing.id}`),
            CareCertificateMessages.evidenceRemoved,
          );
        }}
      />
    </Card>
  );
}

/** /care-certificate/historical/update/{uuid} (92): edit a historical certificate and its evidence files. */
export default function HistoricalEditPage() {
  const { uuid = '' } = useParams();
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const allowed = usePermission([CareCertificatePerm.historical]);
  const cert = useHistorical(uuid);
  const [form, setForm] = useState<HistoricalForm | null>(null);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const notFound = isApiError(cert.error) && cert.error.status === 404;
  useEffect(() => {
    if (notFound) navigate('/404?resource=certificate', { replace: true });
  }, [notFound, navigate]);
  useEffect(() => {
    if (cert.data && !form) setForm(toForm(cert.data));
  }, [cert.data, form]);
  const title = `Edit historical ${wl.certificateGroupMenuName}`;
  if (!allowed)
    return (
      <NoPermission title={title} text="You need the historical certificates permission to see this page." />
    );
  if (cert.isLoading) return <LoadingCard />;
  if (cert.isError || !cert.data)
    return (
      <LoadError
        error={cert.error}
        fallback="This certificate could not be loaded."
        onRetry={() => void cert.refetch()}
      />
    );
  const c = cert.data;
  const save = async () => {
    if (!form) return;
    const body = changedFields(toForm(c), form);
    const parsed = HistoricalUpdate.safeParse(body);
    if (!parsed.success) {
      setClientErrors(zodFieldErrors(parsed.error));
      return;
    }
    setClientErrors({});
    if (!Object.keys(body).length) {
      notifyError(null, 'Nothing has changed.');
      return;
    }
    setBusy(true);
    try {
      const updated = await ccAction<CertificateView>(
        queryClient,
        () => api.patch<Envelope<CertificateView>>(`/historical-care-certificates/${uuid}`, body),
        CareCertificateMessages.historicalSaved,
      );
      setError(null);
      if (updated && 'version' in updated) setForm(toForm({ ...c, ...updated }));
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const errors = { ...serverFieldErrors(error), ...clientErrors };
  return (
    <div className="space-y-6">
      <PageHeader
        title={`${c.user.name}: historical ${wl.certificateGroupMenuName}`}
        description={`${c.user.entity.name} · ${c.version.title}`}
        breadcrumbs={[
          { label: wl.certificateGroupMenuName, to: '/care-certificate' },
          { label: 'Historical', to: '/care-certificate/historical' },
          { label: c.user.name },
        ]}
      />
      {form ? (
        <form
          noValidate
          aria-label="Edit historical certificate"
          className="space-y-5"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <SaveErrors error={error} clientErrors={clientErrors} />
          <FormSection title="Certificate">
            <HistoricalFields
              form={form}
              set={(p) => setForm((f) => (f ? { ...f, ...p } : f))}
              errors={errors}
            />
          </FormSection>
          <div className="flex justify-end">
            <Button type="submit" loading={busy}>
              Save changes
            </Button>
          </div>
        </form>
      ) : null}
      <FilesCard cert={c} />
    </div>
  );
}

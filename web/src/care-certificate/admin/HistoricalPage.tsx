import {
  CareCertificateMessages,
  CareCertificatePerm,
  type CertificateSummary,
  formatDate,
  HistoricalBody,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { api, type Envelope } from '../../app/api';
import { usePermission } from '../../app/auth';
import { notifyError } from '../../app/notifications';
import { useWhitelabel } from '../../app/whitelabel';
import {
  errorEnvelope,
  type FieldErrors,
  FormSection,
  SaveErrors,
  serverFieldErrors,
  zodFieldErrors,
} from '../../entities/shared';
import {
  Button,
  ButtonLink,
  Card,
  DataTable,
  EmptyState,
  PageHeader,
  Pagination,
  SearchInput,
} from '../../ui';
import { ccAction, uploadEvidence, useHistoricalList } from './api';
import { EvidenceFilesInput } from './EvidenceFiles';
import { HistoricalFields, type HistoricalForm, toHistoricalBody } from './HistoricalFields';
import { PersonPicker, type PickedPerson } from './PersonPicker';

export function NoPermission({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <PageHeader title={title} />
      <Card>
        <p className="text-sm text-slate-700">{text}</p>
      </Card>
    </div>
  );
}

const EMPTY: HistoricalForm = {
  version_id: '',
  completed_on: '',
  started_on: '',
  provider: '',
  assessor_name: '',
  notes: '',
};

/** "Record a historical certificate": the person, where and when it was done, and its evidence files. */
function RecordForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [person, setPerson] = useState<PickedPerson | null>(null);
  const [form, setForm] = useState<HistoricalForm>(EMPTY);
  const [files, setFiles] = useState<File[]>([]);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const parsed = HistoricalBody.safeParse({ user_id: person?.id, ...toHistoricalBody(form) });
    if (!parsed.success) {
      setClientErrors(zodFieldErrors(parsed.error));
      return;
    }
    setClientErrors({});
    setBusy(true);
    try {
      const created = await ccAction<CertificateSummary>(
        queryClient,
        () => api.post<Envelope<CertificateSummary>>('/historical-care-certificates', parsed.data),
        CareCertificateMessages.historicalSaved,
      );
      setError(null);
      const uuid = created?.uuid;
      if (uuid) {
        for (const file of files) {
          try {
            await uploadEvidence(uuid, file, null);
          } catch (e) {
            notifyError(
              errorEnvelope(e, `${file.name} could not be uploaded.`),
              `${file.name} could not be uploaded.`,
            );
          }
        }
        await queryClient.invalidateQueries({ queryKey: ['care-certificate'] });
      }
      onDone();
      if (uuid && files.length) navigate(`/care-certificate/historical/update/${uuid}`);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  const errors = { ...serverFieldErrors(error), ...clientErrors };
  return (
    <form
      noValidate
      aria-label="Record a historical certificate"
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <SaveErrors error={error} clientErrors={clientErrors} />
      <FormSection
        title="Record a historical certificate"
        description="A certificate completed with another provider."
      >
        <div className="sm:col-span-2">
          <PersonPicker value={person} onChange={setPerson} error={errors.user_id} />
        </div>
        <HistoricalFields form={form} set={(p) => setForm((f) => ({ ...f, ...p }))} errors={errors} />
        <div className="sm:col-span-2">
          <EvidenceFilesInput files={files} onChange={setFiles} />
        </div>
      </FormSection>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          Save certificate
        </Button>
      </div>
    </form>
  );
}

/**
 * /care-certificate/historical (92): certificates people completed elsewhere (person, version, completed on,
 * provider), with "Record a historical certificate"; each row opens its edit page.
 */
export default function HistoricalPage() {
  const wl = useWhitelabel();
  const allowed = usePermission([CareCertificatePerm.historical]);
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [recording, setRecording] = useState(false);
  const list = useHistoricalList({ page, search });
  const title = `Historical ${wl.certificateGroupMenuName}s`;
  if (!allowed)
    return (
      <NoPermission title={title} text="You need the historical certificates permission to see this page." />
    );
  return (
    <div className="space-y-6">
      <PageHeader
        title={title}
        description="Certificates completed with another provider before joining: what was done, where, and the evidence."
        breadcrumbs={[
          { label: wl.certificateGroupMenuName, to: '/care-certificate' },
          { label: 'Historical' },
        ]}
        actions={
          recording ? null : (
            <Button onClick={() => setRecording(true)}>Record a historical certificate</Button>
          )
        }
      />
      {recording ? <RecordForm onDone={() => setRecording(false)} /> : null}
      <Card padded={false} className="relative overflow-hidden">
        <div className="border-b border-slate-100 p-4">
          <SearchInput
            label="Search people"
            value={search}
            onSearch={(s) => {
              setSearch(s);
              setPage(1);
            }}
          />
        </div>
        <DataTable
          caption="Historical certificates"
          rows={list.data?.data}
          loading={list.isPending}
          rowKey={(c) => c.uuid}
          empty={
            <EmptyState
              title="No historical certificates yet"
              description="Record one when a new starter brings a certificate from another provider."
            />
          }
          columns={[
            {
              key: 'person',
              header: 'Person',
              render: (c) => (
                <span>
                  <span className="font-medium">{c.user.name}</span>
                  <span className="block text-xs text-slate-600">{c.user.entity.name}</span>
                </span>
              ),
            },
            { key: 'version', header: 'Version', render: (c) => c.version.title, hideOnMobile: true },
            {
              key: 'completed',
              header: 'Completed on',
              render: (c) => (c.completed_on ? formatDate(c.completed_on) : '—'),
            },
            ...(list.data?.data.some((c) => 'provider' in c)
              ? [
                  {
                    key: 'provider',
                    header: 'Provider',
                    render: (c: CertificateSummary) =>
                      (c as CertificateSummary & { provider?: string | null }).provider ?? '—',
                    hideOnMobile: true,
                  },
                ]
              : []),
          ]}
          rowActions={(c) => (
            <>
              <ButtonLink size="sm" variant="secondary" to={`/care-certificate/historical/update/${c.uuid}`}>
                Edit <span className="sr-only">{c.user.name}’s certificate</span>
              </ButtonLink>
              <Link
                to={`/care-certificate/${c.uuid}`}
                className="focus-ring inline-flex h-8 items-center rounded px-2 text-sm font-medium text-primary-800 hover:underline"
              >
                View <span className="sr-only">{c.user.name}’s certificate</span>
              </Link>
            </>
          )}
        />
        {list.data ? (
          <div className="px-4">
            <Pagination meta={list.data.meta} onPageChange={setPage} />
          </div>
        ) : null}
      </Card>
    </div>
  );
}

import {
  CareCertificateMessages,
  type CertificateView,
  formatDate,
  formatDateTime,
  RejectBody,
  type StandardProgress,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useAuth } from '../app/auth';
import { useWhitelabel } from '../app/whitelabel';
import {
  DetailRow,
  dash,
  errorEnvelope,
  isNotFound,
  LoadError,
  LoadingCard,
  serverFieldErrors,
} from '../entities/shared';
import {
  Badge,
  Button,
  ButtonLink,
  Card,
  ConfirmDialog,
  EmptyState,
  FormDialog,
  FormError,
  PageHeader,
  TextArea,
} from '../ui';
import {
  approveStandard,
  ccAction,
  downloadPdf,
  fileHref,
  rejectStandard,
  removeEvidence,
  submitStandard,
  useCertificate,
  withdraw,
} from './api';
import { EvidenceDialog, type EvidenceMode } from './EvidenceDialog';
import { GapsBanner } from './GapsBanner';
import {
  CERTIFICATE_STATUS,
  criteriaText,
  DECISION_LABEL,
  fileLocked,
  learnerNext,
  linkedRecords,
  NO_CRITERIA,
  standardsText,
} from './labels';
import { ObservationDialog, type ObservationMode } from './ObservationDialog';
import { ObservationsCard } from './ObservationsCard';
import { Meter, StandardsAccordion } from './StandardsAccordion';

/** Why a standard cannot be selected or approved yet, in the user's words. */
export function notReadyText(s: StandardProgress, learner = false): string | null {
  if (s.state === 'approved') return null;
  if (s.criteria_total === 0) return NO_CRITERIA;
  if (!s.ready)
    return learner
      ? `${s.criteria_total - s.criteria_evidenced} of ${s.criteria_total} criteria still need evidence: upload a photo or a note, or show your assessor at work.`
      : `${s.criteria_total - s.criteria_evidenced} of ${s.criteria_total} criteria still need evidence.`;
  return null;
}

function RejectDialog({
  view,
  standard,
  onClose,
}: {
  view: CertificateView;
  standard: StandardProgress | null;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [reasons, setReasons] = useState('');
  const [error, setError] = useState<string[] | undefined>();
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    if (standard) {
      setReasons('');
      setError(undefined);
    }
  }, [standard]);
  const submit = async () => {
    if (!standard) return;
    const parsed = RejectBody.safeParse({ reasons });
    if (!parsed.success) return setError(parsed.error.issues.map((i) => i.message));
    setBusy(true);
    try {
      await ccAction(
        queryClient,
        () => rejectStandard(view.uuid, standard.id, parsed.data.reasons),
        CareCertificateMessages.standardRejected,
      );
      onClose();
    } catch (e) {
      setError(serverFieldErrors(e).reasons);
    } finally {
      setBusy(false);
    }
  };
  return (
    <FormDialog
      open={standard !== null}
      title={standard ? `Return Standard ${standard.number} with reasons` : ''}
      description="It goes back to working towards; the person sees your reasons."
      submitLabel="Return with reasons"
      tone="danger"
      busy={busy}
      onSubmit={() => void submit()}
      onClose={onClose}
    >
      <TextArea
        label="Reasons"
        required
        value={reasons}
        onChange={(e) => setReasons(e.target.value)}
        error={error}
      />
    </FormDialog>
  );
}

function FilesCard({
  view,
  onUpload,
  uploadLabel = 'Upload evidence',
}: {
  view: CertificateView;
  onUpload?: () => void;
  uploadLabel?: string;
}) {
  const queryClient = useQueryClient();
  const [removing, setRemoving] = useState<{ id: number; name: string } | null>(null);
  const records = linkedRecords(view);
  return (
    <Card
      title="Evidence"
      padded={false}
      data-testid="evidence-files"
      actions={
        onUpload ? (
          <Button size="sm" variant="secondary" onClick={onUpload}>
            {uploadLabel}
          </Button>
        ) : undefined
      }
    >
      {view.files.length ? (
        <ul className="divide-y divide-slate-200">
          {view.files.map((f) => (
            <li key={f.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-5">
              <span className="min-w-0">
                <a
                  href={fileHref(view.uuid, f.id)}
                  download
                  className="focus-ring rounded font-medium break-all text-primary-800 underline"
                >
                  {f.original_name}
                </a>
                <span className="block text-xs text-slate-600">
                  {f.description ? `${f.description} · ` : ''}Added {formatDateTime(f.created_at)}
                  {f.added_by ? ` by ${f.added_by}` : ''}
                </span>
              </span>
              {view.can.upload && !fileLocked(view, f.id) ? (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setRemoving({ id: f.id, name: f.original_name })}
                  aria-label={`Remove ${f.original_name}`}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : (
        <p className="px-4 py-4 text-sm text-slate-600 sm:px-5">No files yet.</p>
      )}
      {records.length ? (
        <ul
          className="divide-y divide-slate-200 border-t border-slate-200"
          aria-label="Training records linked"
        >
          {records.map((r) => (
            <li
              key={r.evidenceId}
              className="flex flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-5"
            >
              <span className="min-w-0">
                <span className="font-medium text-slate-900">Training: {r.courseTitle}</span>
                <span className="block text-xs text-slate-600">
                  Completed {formatDate(r.completedAt)} · linked to {r.codes.join(', ')}
                </span>
              </span>
              {view.can.upload && !r.locked ? (
                <Button
                  variant="ghost"
                  size="sm"
                  onClick={() => setRemoving({ id: r.evidenceId, name: r.courseTitle })}
                  aria-label={`Remove the link to ${r.courseTitle}`}
                >
                  Remove
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      <ConfirmDialog
        open={removing !== null}
        title="Remove this evidence?"
        message={removing ? `${removing.name} will stop counting for its criteria.` : null}
        confirmLabel="Remove"
        onConfirm={() =>
          removing
            ? ccAction(
                queryClient,
                () => removeEvidence(view.uuid, removing.id),
                CareCertificateMessages.evidenceRemoved,
              ).then(() => undefined)
            : undefined
        }
        onClose={() => setRemoving(null)}
      />
    </Card>
  );
}

/** The standards' decisions, newest first; the learner reads what she did in her own words ("Sent to your assessor"). */
function HistoryCard({ view, learner }: { view: CertificateView; learner: boolean }) {
  const decisions = [...view.decisions].sort(
    (a, b) => b.created_at.localeCompare(a.created_at) || b.id - a.id,
  );
  return (
    <Card title="Approval history" padded={false} data-testid="approval-history">
      {decisions.length ? (
        <ol className="divide-y divide-slate-200">
          {decisions.map((d) => (
            <li key={d.id} className="px-4 py-3 text-sm sm:px-5">
              <span className="font-medium text-slate-900">
                Standard {d.standard_number}:{' '}
                {learner && d.action === 'submitted' ? 'Sent to your assessor' : DECISION_LABEL[d.action]}
              </span>
              <span className="block text-xs text-slate-600">
                {formatDateTime(d.created_at)}
                {d.by ? ` by ${d.by}` : ''}
              </span>
              {d.reasons ? <p className="mt-1 text-slate-800">Reasons: {d.reasons}</p> : null}
            </li>
          ))}
        </ol>
      ) : (
        <p className="px-4 py-4 text-sm text-slate-600 sm:px-5">
          {learner
            ? 'No standard has been sent to your assessor yet.'
            : 'No standard has been selected for approval yet.'}
        </p>
      )}
    </Card>
  );
}

/**
 * `/care-certificate/{uuid}` (issue 16): one person's certificate. The actions follow the view's `can` flags (the
 * server checks again): evidence, observations, selecting a standard for approval, approving or returning it,
 * the PDF when complete, withdrawing an assignment without evidence.
 */
export default function CertificatePage() {
  const { uuid } = useParams();
  const wl = useWhitelabel();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const query = useCertificate(uuid);
  const me = useAuth().user;
  const [observation, setObservation] = useState<ObservationMode | null>(null);
  const [evidence, setEvidence] = useState<EvidenceMode | null>(null);
  const [rejecting, setRejecting] = useState<StandardProgress | null>(null);
  const [withdrawing, setWithdrawing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const notFound = isNotFound(query.error);
  useEffect(() => {
    if (notFound) navigate('/404?resource=certificate', { replace: true });
  }, [notFound, navigate]);

  const crumbs = [{ label: wl.certificateGroupMenuName, to: '/care-certificate' }];
  if (query.isLoading || notFound)
    return (
      <div>
        <PageHeader title={wl.certificateGroupMenuName} breadcrumbs={crumbs} />
        <LoadingCard />
      </div>
    );
  if (query.isError || !query.data)
    return (
      <div>
        <PageHeader title={wl.certificateGroupMenuName} breadcrumbs={crumbs} />
        <LoadError
          error={query.error}
          fallback="The certificate could not be loaded."
          onRetry={() => void query.refetch()}
        />
      </div>
    );
  const view = query.data;
  const complete = view.status === 'complete';
  // Issue 32 §4: the person's own certificate speaks to her and shows no assessor action (observe, approve, return),
  // whatever else she may do elsewhere; everyone else keeps the assessor's words.
  const learner = me?.id === view.user.id;
  const can = learner ? { ...view.can, observe: false, approve: false } : view.can;

  const standardAction = async (key: string, run: () => Promise<unknown>) => {
    setBusy(key);
    setRefusal(null);
    try {
      await run();
    } catch (error) {
      // 422 {standard: [...]} or 409: the server's words above the standards.
      const fields = serverFieldErrors(error);
      setRefusal(
        Object.values(fields).flat()[0] ??
          errorEnvelope(error, 'That did not work. Please try again.').message ??
          null,
      );
    } finally {
      setBusy(null);
    }
  };
  const actions = (s: StandardProgress) => {
    const why = notReadyText(s, learner);
    const buttons = [];
    if (can.upload && s.state !== 'approved' && s.criteria_total > 0)
      buttons.push(
        <Button
          key="upload"
          size="sm"
          variant="secondary"
          onClick={() => setEvidence({ kind: 'file', standardId: s.id })}
        >
          {learner ? 'Upload a photo or a note for this' : 'Upload evidence'}
        </Button>,
      );
    if (can.observe && s.state !== 'approved' && s.criteria_total > 0)
      buttons.push(
        <Button
          key="observe"
          size="sm"
          variant="secondary"
          onClick={() => setObservation({ kind: 'new', standardId: s.id })}
        >
          Record an observation
        </Button>,
      );
    if (can.submit && s.state === 'open' && s.ready)
      buttons.push(
        <Button
          key="submit"
          size="sm"
          loading={busy === `submit-${s.id}`}
          onClick={() =>
            void standardAction(`submit-${s.id}`, () =>
              ccAction(
                queryClient,
                () => submitStandard(view.uuid, s.id),
                CareCertificateMessages.standardSubmitted,
                {
                  quietErrors: true,
                },
              ),
            )
          }
        >
          {learner ? `Send Standard ${s.number} to your assessor` : 'Select for approval'}
        </Button>,
      );
    if (can.approve && s.state !== 'approved' && s.ready)
      buttons.push(
        <Button
          key="approve"
          size="sm"
          loading={busy === `approve-${s.id}`}
          onClick={() =>
            void standardAction(`approve-${s.id}`, () =>
              ccAction(
                queryClient,
                () => approveStandard(view.uuid, s.id),
                CareCertificateMessages.standardApproved,
                {
                  quietErrors: true,
                },
              ),
            )
          }
        >
          Approve Standard {s.number}
        </Button>,
      );
    if (can.approve && s.state === 'awaiting_approval')
      buttons.push(
        <Button key="reject" size="sm" variant="danger" onClick={() => setRejecting(s)}>
          Return with reasons
        </Button>,
      );
    return (
      <>
        {buttons}
        {why && s.criteria_total > 0 && (can.submit || can.approve) ? (
          <p className="w-full text-xs text-slate-600">{why}</p>
        ) : null}
      </>
    );
  };

  const status = CERTIFICATE_STATUS[view.status];
  return (
    <div className="space-y-6">
      <PageHeader
        title={view.user.name}
        breadcrumbs={[...crumbs, { label: view.user.name }]}
        description={`${view.version.title} · ${view.user.entity.name}`}
        actions={
          <>
            {can.download && complete ? (
              <Button
                loading={busy === 'pdf'}
                onClick={() => {
                  setBusy('pdf');
                  void downloadPdf(view.uuid, `${wl.certificateGroupMenuName} ${view.user.name}`).finally(
                    () => setBusy(null),
                  );
                }}
              >
                Download certificate
              </Button>
            ) : null}
            {can.upload && !complete ? (
              <Button variant="secondary" onClick={() => setEvidence({ kind: 'result' })}>
                Link a training record
              </Button>
            ) : null}
            {view.historical && can.edit_historical ? (
              <ButtonLink variant="secondary" to={`/care-certificate/historical/update/${view.uuid}`}>
                Edit
              </ButtonLink>
            ) : null}
            {can.withdraw ? (
              <Button variant="danger" onClick={() => setWithdrawing(true)}>
                Withdraw
              </Button>
            ) : null}
          </>
        }
      />
      {learner && !view.historical ? (
        <Card title="What happens next" data-testid="what-next">
          <p className="text-sm text-slate-800">{learnerNext(view, can.submit)}</p>
        </Card>
      ) : null}
      <GapsBanner view={view} learner={learner} />
      <Card title="Summary" data-testid="certificate-summary">
        <div className="mb-4 flex flex-wrap items-center gap-2">
          <Badge tone={status.tone}>{status.label}</Badge>
          {view.overdue ? <Badge tone="danger">Overdue</Badge> : null}
          {view.standards_awaiting_approval ? (
            <Badge tone="warning">{view.standards_awaiting_approval} awaiting approval</Badge>
          ) : null}
          {view.historical ? <Badge tone="neutral">Completed elsewhere</Badge> : null}
        </div>
        <div className="mb-2 flex flex-wrap justify-between gap-2 text-sm">
          <span className="font-medium text-slate-900">{standardsText(view)}</span>
          <span className="text-slate-600">
            {view.historical
              ? 'Recorded from another provider'
              : criteriaText(view.criteria_evidenced, view.criteria_total)}
          </span>
        </div>
        {view.historical ? null : (
          <Meter done={view.criteria_evidenced} total={view.criteria_total} label="Criteria evidenced" />
        )}
        <dl className="mt-4 divide-y divide-slate-100">
          <DetailRow label="Person">
            {view.user.name} ({view.user.entity.name})
          </DetailRow>
          <DetailRow label="Version">{view.version.title}</DetailRow>
          <DetailRow label="Started">{formatDate(view.started_on)}</DetailRow>
          {view.historical ? null : (
            <DetailRow label="Expected by">
              {view.expected_by ? formatDate(view.expected_by) : '—'}
              {view.overdue ? ' (overdue)' : ''}
            </DetailRow>
          )}
          <DetailRow label="Completed">{view.completed_on ? formatDate(view.completed_on) : '—'}</DetailRow>
          {view.assigned_by ? (
            <DetailRow label={view.historical ? 'Recorded by' : 'Assigned by'}>{view.assigned_by}</DetailRow>
          ) : null}
          {view.historical ? (
            <>
              <DetailRow label="Completed at">{dash(view.provider)}</DetailRow>
              <DetailRow label="Assessor">{dash(view.assessor_name)}</DetailRow>
              <DetailRow label="Notes">{dash(view.notes)}</DetailRow>
            </>
          ) : null}
        </dl>
      </Card>
      <Card
        title="Standards"
        padded={false}
        data-testid="standards"
        actions={
          can.upload && !complete ? (
            <Button size="sm" variant="secondary" onClick={() => setEvidence({ kind: 'file' })}>
              {learner ? 'Upload a photo or a note' : 'Upload evidence'}
            </Button>
          ) : undefined
        }
      >
        {refusal ? (
          <div className="p-4">
            <FormError error={{ message: refusal }} />
          </div>
        ) : null}
        {view.standards.length ? (
          <StandardsAccordion view={view} actions={complete ? undefined : actions} learner={learner} />
        ) : (
          <EmptyState title="This version has no standards yet" />
        )}
      </Card>
      {view.historical ? null : (
        <ObservationsCard view={learner ? { ...view, can } : view} onOpen={setObservation} />
      )}
      <FilesCard
        view={view}
        onUpload={can.upload && !complete ? () => setEvidence({ kind: 'file' }) : undefined}
        uploadLabel={learner ? 'Upload a photo or a note' : undefined}
      />
      {view.historical ? null : <HistoryCard view={view} learner={learner} />}
      {observation ? (
        <ObservationDialog view={view} mode={observation} onClose={() => setObservation(null)} />
      ) : null}
      {evidence ? <EvidenceDialog view={view} mode={evidence} onClose={() => setEvidence(null)} /> : null}
      <RejectDialog view={view} standard={rejecting} onClose={() => setRejecting(null)} />
      <ConfirmDialog
        open={withdrawing}
        title="Withdraw this certificate?"
        message={`${view.user.name} will no longer have the ${wl.certificateGroupMenuName} (${view.version.title}). You can assign it again later.`}
        confirmLabel="Withdraw"
        onConfirm={async () => {
          await ccAction(queryClient, () => withdraw(view.uuid), CareCertificateMessages.withdrawn);
          navigate('/care-certificate', { replace: true });
        }}
        onClose={() => setWithdrawing(false)}
      />
    </div>
  );
}

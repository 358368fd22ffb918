import { formatDate, ResultsPerm, type ResultView } from '@cc/contracts';
import { useState } from 'react';
import { buildUrl } from '../app/api';
import { usePermission } from '../app/auth';
import { downloadCertificate } from '../learning/api';
import { RESULT_TYPE_LABELS } from '../results/api';
import { Badge, Button, ButtonLink, Card, CardPagination, Spinner } from '../ui';
import { useTrainingHistory } from './api';

/**
 * "Add training record": the historical-result form (/results/historical/create) for every signed-in learner. Who
 * holds add record (26) gets the full form (any user, approved at once); everyone else records their own past
 * training (`?self=1`: the person is themselves, the result awaits their manager's approval).
 */
export function AddTrainingRecordLink() {
  const canAdd = usePermission([ResultsPerm.addRecord]);
  return (
    <ButtonLink
      size="sm"
      variant="secondary"
      to={canAdd ? '/results/historical/create' : '/results/historical/create?self=1'}
      data-testid="add-training-record"
    >
      Add training record
    </ButtonLink>
  );
}

/**
 * The user's training history (GET /users/{id}/results, newest first): every result with its dates and kind, the
 * evidence file where it has one, and the certificate of the newest pass of each course.
 */
export function TrainingHistory({ userRef }: { userRef: string }) {
  const [page, setPage] = useState(1);
  const history = useTrainingHistory(userRef, page);
  const rows = history.data?.data ?? [];
  // The certificate is the course's current one: offer it on the newest passed result of each course on the page.
  // An acknowledged document (issue 17) has no training certificate: its receipt is on the document's page.
  const newestPass = new Set<number>();
  const seen = new Set<number>();
  for (const r of rows)
    if (
      r.passed &&
      r.status === 'approved' &&
      r.type !== 'exempt' &&
      r.type !== 'document' &&
      !seen.has(r.course.id)
    ) {
      seen.add(r.course.id);
      newestPass.add(r.id);
    }
  return (
    <Card
      title="Training history"
      data-testid="training-history"
      actions={<AddTrainingRecordLink />}
      padded={false}
    >
      {history.isPending ? (
        <div className="p-5">
          <Spinner label="Loading your training history" />
        </div>
      ) : history.isError ? (
        <p className="p-5 text-sm text-danger-700" role="alert">
          Your training history could not be loaded. Please reload the page.
        </p>
      ) : rows.length === 0 ? (
        <p className="p-5 text-sm text-slate-700">No training recorded yet.</p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {rows.map((r) => (
            <HistoryRow key={r.id} result={r} userRef={userRef} certificate={newestPass.has(r.id)} />
          ))}
        </ul>
      )}
      <CardPagination meta={history.data?.meta} onPageChange={setPage} label="Training history pages" />
    </Card>
  );
}

function HistoryRow({
  result: r,
  userRef,
  certificate,
}: {
  result: ResultView;
  userRef: string;
  certificate: boolean;
}) {
  const [busy, setBusy] = useState(false);
  const exempt = r.type === 'exempt';
  const expired = r.expires_at !== null && new Date(r.expires_at).getTime() <= Date.now();
  return (
    <li
      className="flex flex-col gap-2 px-5 py-4 sm:flex-row sm:items-start sm:justify-between"
      data-testid="history-row"
    >
      <div className="min-w-0 space-y-1">
        <p className="font-medium text-slate-900 wrap-anywhere">{r.course.title}</p>
        <p className="flex flex-wrap items-center gap-2 text-sm text-slate-700">
          <span>{RESULT_TYPE_LABELS[r.type] ?? r.type}</span>
          {r.status === 'pending' ? (
            <Badge tone="warning">Awaiting approval</Badge>
          ) : exempt ? null : r.passed ? (
            <Badge tone="success">Passed{r.score !== null ? ` ${r.score}%` : ''}</Badge>
          ) : (
            <Badge tone="danger">Not passed</Badge>
          )}
          {expired ? <Badge tone="neutral">Expired</Badge> : null}
        </p>
        <p className="text-sm text-slate-600">
          {exempt ? 'From' : 'Completed'} {formatDate(r.completed_at)}
          {r.expires_at
            ? ` · ${expired ? 'expired' : exempt ? 'until' : 'valid until'} ${formatDate(r.expires_at)}`
            : ''}
        </p>
        {r.evidence ? (
          <p className="text-sm">
            Evidence:{' '}
            <a
              className="focus-ring break-all rounded text-primary-800 underline"
              href={buildUrl(`/results/${r.id}/evidence`)}
              download
            >
              {r.evidence.name}
            </a>
          </p>
        ) : null}
      </div>
      {certificate && r.status === 'approved' && !r.certificate_suppressed && !expired ? (
        <Button
          size="sm"
          variant="secondary"
          className="self-start"
          loading={busy}
          aria-label={`Download certificate for ${r.course.title}`}
          onClick={async () => {
            setBusy(true);
            await downloadCertificate(userRef, r.course.id);
            setBusy(false);
          }}
        >
          Download certificate
        </Button>
      ) : null}
    </li>
  );
}

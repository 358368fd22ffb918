import {
  CareCertificateMessages,
  type CertificateView,
  formatDateTime,
  type ObservationView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Badge, Button, Card, ConfirmDialog, cx, EmptyState } from '../ui';
import { approveObservation, ccAction, deleteObservation } from './api';
import {
  criteriaOf,
  criterionLine,
  OUTCOME_LABEL,
  observationCorrectable,
  observationEditable,
  observationsByDate,
  SHIFT_LABEL,
} from './labels';
import type { ObservationMode } from './ObservationDialog';

/**
 * The observations: newest first; a corrected one is shown struck through as superseded, with the correction's
 * reason on its replacement. Actions per the view's `can`: edit/delete while unapproved, approve, correct.
 */
export function ObservationsCard({
  view,
  onOpen,
}: {
  view: CertificateView;
  onOpen: (mode: ObservationMode) => void;
}) {
  const queryClient = useQueryClient();
  const [deleting, setDeleting] = useState<ObservationView | null>(null);
  const [busy, setBusy] = useState<number | null>(null);
  const criteria = new Map(view.standards.flatMap(criteriaOf).map((c) => [c.id, c]));
  const approve = async (o: ObservationView) => {
    setBusy(o.id);
    try {
      await ccAction(
        queryClient,
        () => approveObservation(view.uuid, o.id),
        CareCertificateMessages.observationApproved,
      );
    } catch {
      // shown as a notification
    } finally {
      setBusy(null);
    }
  };
  const list = observationsByDate(view.observations);
  return (
    <Card
      title="Observations"
      padded={false}
      data-testid="observations"
      actions={
        view.can.observe && view.status !== 'complete' ? (
          <Button size="sm" onClick={() => onOpen({ kind: 'new' })}>
            Record an observation
          </Button>
        ) : undefined
      }
    >
      {list.length ? (
        <ul className="divide-y divide-slate-200">
          {list.map((o) => {
            const superseded = o.superseded_by_id !== null;
            return (
              <li key={o.id} className="space-y-2 px-4 py-4 sm:px-5" data-testid={`observation-${o.id}`}>
                <div className={cx('space-y-1', superseded && 'text-slate-500 line-through')}>
                  <p className="text-sm font-semibold text-slate-900">
                    {formatDateTime(o.observed_at)} · {o.place} · {SHIFT_LABEL[o.shift]} shift
                  </p>
                  <p className="text-sm">Assessor: {o.assessor.name}</p>
                  <p className="text-sm whitespace-pre-line text-slate-800">{o.observed}</p>
                  <ul className="list-disc pl-5 text-xs text-slate-700" aria-label="Criteria observed">
                    {o.criterion_ids.map((id) => {
                      const c = criteria.get(id);
                      return <li key={id}>{c ? criterionLine(c) : `Criterion ${id}`}</li>;
                    })}
                  </ul>
                </div>
                <div className="flex flex-wrap items-center gap-2 text-xs text-slate-600">
                  <Badge tone={o.outcome === 'competent' ? 'success' : 'warning'}>
                    {OUTCOME_LABEL[o.outcome]}
                  </Badge>
                  {superseded ? (
                    <Badge tone="neutral">Superseded by a correction</Badge>
                  ) : o.approved_at ? (
                    <Badge tone="success">Approved</Badge>
                  ) : (
                    <Badge tone="warning">Not approved yet</Badge>
                  )}
                  {o.approved_at ? (
                    <span>
                      Approved {formatDateTime(o.approved_at)}
                      {o.approved_by ? ` by ${o.approved_by}` : ''}
                    </span>
                  ) : null}
                  {o.created_by ? <span>Recorded by {o.created_by}</span> : null}
                </div>
                {o.supersedes_id !== null ? (
                  <p className="rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-800">
                    Correction of an earlier observation. Reason: {o.correction_reason}
                  </p>
                ) : null}
                <div className="flex flex-wrap gap-2">
                  {view.can.observe && observationEditable(o) ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => onOpen({ kind: 'edit', observation: o })}
                    >
                      Edit
                    </Button>
                  ) : null}
                  {view.can.delete_observation && observationEditable(o) ? (
                    <Button variant="ghost" size="sm" onClick={() => setDeleting(o)}>
                      Delete
                    </Button>
                  ) : null}
                  {view.can.approve && !o.approved_at && !superseded ? (
                    <Button
                      size="sm"
                      variant="secondary"
                      loading={busy === o.id}
                      onClick={() => void approve(o)}
                    >
                      Approve
                    </Button>
                  ) : null}
                  {view.can.observe && observationCorrectable(o) ? (
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => onOpen({ kind: 'correct', observation: o })}
                    >
                      Correct
                    </Button>
                  ) : null}
                </div>
              </li>
            );
          })}
        </ul>
      ) : (
        <EmptyState
          title="No observations yet"
          description="An assessor records what they saw at work; criteria that ask to be observed need one."
        />
      )}
      <ConfirmDialog
        open={deleting !== null}
        title="Delete this observation?"
        message={
          deleting
            ? `The observation of ${formatDateTime(deleting.observed_at)} will be removed and stop counting as evidence.`
            : null
        }
        confirmLabel="Delete"
        onConfirm={() =>
          deleting
            ? ccAction(
                queryClient,
                () => deleteObservation(view.uuid, deleting.id),
                CareCertificateMessages.observationDeleted,
              ).then(() => undefined)
            : undefined
        }
        onClose={() => setDeleting(null)}
      />
    </Card>
  );
}

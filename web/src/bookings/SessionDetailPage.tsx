import { BookingsMessages, formatDate, type TrainingSessionView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { api } from '../app/api';
import { DetailRow, dash, LoadError, LoadingCard } from '../entities/shared';
import { Badge, Button, ButtonLink, Card, ConfirmDialog, PageHeader } from '../ui';
import { AttendanceCard } from './AttendanceCard';
import { useBookingsAccess } from './access';
import { bookingAction, useSession, useSessionNotFound } from './api';
import { CancelSessionDialog } from './CancelSessionDialog';
import { CheckInCode } from './CheckInCode';
import { DelegatesCard } from './DelegatesCard';
import {
  AVAILABLE_TO_LABEL,
  GRADING_LABEL,
  hhmm,
  linkHost,
  placesText,
  SESSION_STATUS,
  sessionWhere,
} from './labels';
import { SessionOrders } from './Orders';
import { SessionLink } from './SessionLink';

type Ending = 'complete' | 'incomplete';

/** `/manage-bookings/:id`: one session with its actions, check-in code, delegates, attendance and orders. */
export default function SessionDetailPage() {
  const { id } = useParams();
  const session = useSession(id);
  useSessionNotFound(session.error);
  if (session.isLoading) return <LoadingCard label="Loading the session" />;
  if (session.isError || !session.data)
    return (
      <LoadError
        error={session.error}
        fallback="The session could not be loaded."
        onRetry={() => void session.refetch()}
      />
    );
  return <SessionDetail s={session.data} />;
}

function SessionDetail({ s }: { s: TrainingSessionView }) {
  const queryClient = useQueryClient();
  const access = useBookingsAccess();
  const [cancelling, setCancelling] = useState(false);
  const [ending, setEnding] = useState<Ending | null>(null);
  const open = s.status === 'scheduled' || s.status === 'confirmed';
  const status = SESSION_STATUS[s.status];
  // The code is for the day itself: shown while the session is open, to those the server gives it to.
  const showCode = Boolean(s.check_in_code) && open;
  // A session can be completed or marked incomplete once it has started.
  const canEnd = (s.can.edit || s.can.mark) && new Date(s.starts_at).getTime() <= Date.now();
  const end = (kind: Ending) =>
    bookingAction(
      queryClient,
      () => api.post(`/training-sessions/${s.id}/${kind}`),
      kind === 'complete' ? BookingsMessages.sessionCompleted : BookingsMessages.sessionIncomplete,
    );
  return (
    <div className="space-y-6">
      <PageHeader
        title={s.content.title}
        breadcrumbs={[
          { label: access.trainerOnly ? 'My sessions' : 'Manage bookings', to: '/manage-bookings' },
          { label: s.content.title },
        ]}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone={status.tone}>{status.label}</Badge>
            <span>{s.course.title}</span>
            <span aria-hidden="true">·</span>
            <span>{s.entity.name}</span>
          </span>
        }
        actions={
          <>
            {s.can.edit && open ? (
              <ButtonLink variant="secondary" to={`/manage-bookings/${s.id}/edit`}>
                Edit
              </ButtonLink>
            ) : null}
            {canEnd && s.status !== 'completed' && s.status !== 'cancelled' ? (
              <Button variant="secondary" onClick={() => setEnding('complete')}>
                Complete
              </Button>
            ) : null}
            {canEnd && s.status !== 'incomplete' && s.status !== 'cancelled' ? (
              <Button variant="secondary" onClick={() => setEnding('incomplete')}>
                Mark incomplete
              </Button>
            ) : null}
            {s.can.edit && open ? (
              <Button variant="danger" onClick={() => setCancelling(true)}>
                Cancel session
              </Button>
            ) : null}
          </>
        }
      />
      {s.status === 'cancelled' ? (
        <div
          role="note"
          className="rounded-lg border border-danger-200 bg-danger-100 px-4 py-3 text-sm text-danger-800"
        >
          <p className="font-semibold">
            Cancelled{s.cancellation_reason ? `: ${s.cancellation_reason}` : ''}
          </p>
          {s.cancellation_notes ? <p className="mt-1 whitespace-pre-line">{s.cancellation_notes}</p> : null}
        </div>
      ) : null}
      <div className={showCode ? 'grid grid-cols-1 gap-6 lg:grid-cols-3' : undefined}>
        <Card title="Details" className={showCode ? 'lg:col-span-2' : undefined}>
          <dl className="divide-y divide-slate-100">
            <DetailRow label={s.dates.length > 1 ? 'Days' : 'When'}>
              <ul className="space-y-0.5">
                {s.dates.map((d) => (
                  <li key={d.date}>
                    {formatDate(d.date)}, {hhmm(d.startTime)}–{hhmm(d.endTime)}
                  </li>
                ))}
              </ul>
            </DetailRow>
            <DetailRow label="Where">
              {s.virtual && linkHost(s.virtual_url) ? (
                <>
                  Online:{' '}
                  <SessionLink
                    url={s.virtual_url}
                    className="focus-ring rounded text-primary-800 underline"
                  />
                </>
              ) : (
                sessionWhere(s)
              )}
            </DetailRow>
            <DetailRow label="Area">{dash(s.area)}</DetailRow>
            <DetailRow label="Trainer">{s.trainer?.name ?? 'Not chosen yet'}</DetailRow>
            <DetailRow label="Places">
              {placesText(s)} ({s.places_free} free
              {s.minDelegates > 0 ? `; at least ${s.minDelegates} needed` : ''})
            </DetailRow>
            <DetailRow label="Available to">{AVAILABLE_TO_LABEL[s.availableTo].label}</DetailRow>
            <DetailRow label="Grading">
              {GRADING_LABEL[s.grading_method].label}
              {s.grading_method === 'score' && s.pass_mark !== null ? ` (pass mark ${s.pass_mark})` : ''}
            </DetailRow>
            <DetailRow label="Aim">
              <span className="whitespace-pre-line">{dash(s.aim)}</span>
            </DetailRow>
            <DetailRow label="Content covered">
              <span className="whitespace-pre-line">{dash(s.contentCovered)}</span>
            </DetailRow>
            <DetailRow label="Learning outcomes">
              <span className="whitespace-pre-line">{dash(s.learningOutcomes)}</span>
            </DetailRow>
          </dl>
        </Card>
        {showCode && s.check_in_code ? <CheckInCode sessionId={s.id} code={s.check_in_code} /> : null}
      </div>
      <DelegatesCard session={s} />
      {s.can.mark && s.status !== 'cancelled' ? <AttendanceCard session={s} /> : null}
      {access.orders ? <SessionOrders session={s} /> : null}
      <CancelSessionDialog session={s} open={cancelling} onClose={() => setCancelling(false)} />
      <ConfirmDialog
        open={ending !== null}
        tone="primary"
        title={ending === 'complete' ? 'Complete this session?' : 'Mark this session incomplete?'}
        message={
          ending === 'complete'
            ? 'It ran as planned. Mark attendance so the delegates get their results.'
            : 'It did not run in full (for example it was cut short). Delegates keep the attendance already marked.'
        }
        confirmLabel={ending === 'complete' ? 'Complete' : 'Mark incomplete'}
        onConfirm={() => (ending ? end(ending) : undefined)}
        onClose={() => setEnding(null)}
      />
    </div>
  );
}

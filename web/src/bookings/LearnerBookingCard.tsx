import { BookingsMessages, formatDate, formatDateTime, type UserBookingView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { Button, ConfirmDialog, FormError, TextField } from '../ui';
import {
  isSessionToday,
  PastOutcome,
  SessionFacts,
  SessionHeading,
  StatusBadge,
  statusDetail,
} from './LearnerSessionParts';
import { cancelBooking, checkIn, claimPlace, downloadSessionIcs, refreshBookings } from './learner-api';
import { SessionLink } from './SessionLink';

/** States that hold a place (or ask for one): the learner may cancel them, subject to the server's rules. */
const CANCELLABLE = new Set(['requested', 'pending', 'accepted', 'waitlisted', 'offered']);
const HOLDS_PLACE = new Set(['pending', 'accepted', 'offered']);
/** An offered place is not the learner's until claimed: no calendar entry before that. */
const IN_CALENDAR = new Set(['pending', 'accepted']);

/**
 * One booking as a card: the session, the state in words, and what the learner can do now: claim an offered place,
 * check in on the day with the trainer's code, add it to their calendar, cancel (with a confirmation; the server
 * refuses after the provider's cut-off and its message is shown).
 */
export function LearnerBookingCard({
  booking: b,
  past = false,
  checkInOpen = false,
}: {
  booking: UserBookingView;
  past?: boolean;
  /** Opened from the trainer's QR (/your-bookings?check_in=<session id>): show the code input with focus. */
  checkInOpen?: boolean;
}) {
  const qc = useQueryClient();
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [claiming, setClaiming] = useState(false);
  const [icsBusy, setIcsBusy] = useState(false);
  const s = b.session;
  const title = s.course.title;
  const today = !past && isSessionToday(s);
  // The server checks in an accepted booking only (a pending one waits for the provider first).
  const canCheckIn = today && b.status === 'accepted' && !s.cancelled;

  const claim = async () => {
    setClaiming(true);
    try {
      const res = await claimPlace(b.id);
      notifySuccess(res.data?.message ?? BookingsMessages.placeClaimed);
      await refreshBookings(qc);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The place could not be claimed.');
      if (isApiError(error) && error.status === 422) await refreshBookings(qc);
    } finally {
      setClaiming(false);
    }
  };

  const addToCalendar = async () => {
    setIcsBusy(true);
    await downloadSessionIcs(s.id);
    setIcsBusy(false);
  };

  return (
    <article
      className="space-y-3 px-4 py-4 sm:px-5"
      data-testid="booking-card"
      data-session-id={s.id}
      aria-label={`${title}, ${formatDate(s.date)}`}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <SessionHeading session={s} />
        {past ? null : <StatusBadge status={b.status} />}
      </div>
      <SessionFacts session={s} />
      {past ? (
        <PastOutcome b={b} />
      ) : (
        <p className="text-sm text-slate-700" data-testid="booking-state">
          {s.cancelled ? (
            <>
              This session has been cancelled
              {s.cancellation_reason ? `: ${s.cancellation_reason}` : ''}.
            </>
          ) : (
            statusDetail(b)
          )}
        </p>
      )}
      {!past && s.virtual && s.virtual_url && HOLDS_PLACE.has(b.status) ? (
        <p className="text-sm">
          <SessionLink url={s.virtual_url} action="Join the online session" />
        </p>
      ) : null}
      {b.checked_in_at && !past ? (
        <p className="text-sm font-medium text-success-800" data-testid="checked-in">
          Checked in {formatDateTime(b.checked_in_at)}
        </p>
      ) : canCheckIn ? (
        <CheckInForm sessionId={s.id} title={title} autoFocus={checkInOpen} />
      ) : null}
      {past || s.cancelled ? null : (
        <div className="flex flex-wrap gap-2">
          {b.status === 'offered' ? (
            <Button size="sm" onClick={claim} loading={claiming} aria-label={`Claim this place on ${title}`}>
              Claim this place
            </Button>
          ) : null}
          {IN_CALENDAR.has(b.status) ? (
            <Button
              size="sm"
              variant="secondary"
              onClick={addToCalendar}
              loading={icsBusy}
              aria-label={`Add ${title} to your calendar`}
            >
              Add to calendar
            </Button>
          ) : null}
          {CANCELLABLE.has(b.status) ? (
            <Button
              size="sm"
              variant="ghost"
              className="text-danger-700"
              onClick={() => setConfirmCancel(true)}
              aria-label={`${cancelWords(b.status).action} on ${title}`}
            >
              {cancelWords(b.status).action}
            </Button>
          ) : null}
        </div>
      )}
      <ConfirmDialog
        open={confirmCancel}
        title={cancelWords(b.status).title}
        message={
          <>
            {title}, {sessionStartText(b)}.{' '}
            {HOLDS_PLACE.has(b.status)
              ? 'Your place goes to the next person on the waiting list.'
              : 'You can book again later if places are free.'}
          </>
        }
        confirmLabel={cancelWords(b.status).action}
        cancelLabel="Keep it"
        onConfirm={async () => {
          try {
            const res = await cancelBooking(b.id);
            notifySuccess(res.data?.message ?? BookingsMessages.bookingCancelled);
            await refreshBookings(qc);
          } catch (error) {
            notifyError(isApiError(error) ? error.data : null, 'Your booking could not be cancelled.');
            throw error;
          }
        }}
        onClose={() => setConfirmCancel(false)}
      />
    </article>
  );
}

/** The learner's way out of each state, in words. */
function cancelWords(status: UserBookingView['status']): { action: string; title: string } {
  if (status === 'waitlisted') return { action: 'Leave the waiting list', title: 'Leave the waiting list?' };
  if (status === 'offered') return { action: 'Turn down the place', title: 'Turn down the place?' };
  if (status === 'requested') return { action: 'Withdraw my request', title: 'Withdraw your request?' };
  return { action: 'Cancel my booking', title: 'Cancel your booking?' };
}

function sessionStartText(b: UserBookingView): string {
  const s = b.session;
  const first = s.dates[0] ?? { date: s.date, startTime: s.startTime };
  return `${s.dates.length > 1 ? 'starting ' : ''}${formatDate(first.date)} at ${first.startTime}`;
}

/** The self check-in: the code the trainer shows (or the QR that opened this page), sent on the day. */
export function CheckInForm({
  sessionId,
  title,
  autoFocus = false,
  onDone,
}: {
  sessionId: number;
  title: string;
  autoFocus?: boolean;
  onDone?: () => void;
}) {
  const qc = useQueryClient();
  // The trainer's QR carries the code too (/your-bookings?check_in=<session id>&code=<code>): fill it in.
  const [params] = useSearchParams();
  const fromQr = Number(params.get('check_in')) === sessionId ? (params.get('code') ?? '') : '';
  const [code, setCode] = useState(fromQr.slice(0, 12));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message?: string; errors?: Record<string, string[]> } | null>(null);
  const inputId = `check-in-code-${sessionId}`;
  useEffect(() => {
    if (!autoFocus) return;
    const input = document.getElementById(inputId);
    input?.scrollIntoView?.({ block: 'center' });
    input?.focus();
  }, [autoFocus, inputId]);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setError(null);
    if (code.trim().length < 4) {
      setError({ errors: { code: ['Enter the code your trainer shows.'] } });
      return;
    }
    setBusy(true);
    try {
      const res = await checkIn(sessionId, { code: code.trim() });
      notifySuccess(res.data?.message ?? BookingsMessages.checkedIn);
      await refreshBookings(qc);
      onDone?.();
    } catch (err) {
      setError(isApiError(err) ? (err.data ?? null) : { message: 'Check-in failed. Please try again.' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      onSubmit={submit}
      noValidate
      className="space-y-2 rounded-lg bg-primary-100/40 p-3 ring-1 ring-primary-200"
      data-testid="check-in-form"
      aria-label={`Check in to ${title}`}
    >
      {error?.message && !error.errors?.code ? <FormError error={{ message: error.message }} /> : null}
      <p className="text-sm text-slate-700">It is the day: enter the code your trainer shows to check in.</p>
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="sm:w-48">
          <TextField
            id={inputId}
            label="Check-in code"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={12}
            value={code}
            onChange={(e) => setCode(e.target.value)}
            error={error?.errors?.code}
          />
        </div>
        <Button type="submit" loading={busy}>
          Check in
        </Button>
      </div>
    </form>
  );
}

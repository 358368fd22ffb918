import {
  type BookingGapView,
  type GapBookingResult,
  gapBookedMessage,
  type TrainingSessionView,
} from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import { notifyError, notifySuccess } from '../app/notifications';
import { CourseStatusBadge } from '../compliance/CourseStatusBadge';
import { errorEnvelope, LoadError, LoadingCard } from '../entities/shared';
import { Badge, Button, ButtonLink, Card, PageHeader, Select } from '../ui';
import { bookGap, useBookingGap } from './gap-api';
import { placesText } from './LearnerSessionParts';
import { sessionWhen, sessionWhere } from './labels';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/**
 * `/manage-bookings/gaps/:courseId?entity=<slug>` (issue 33 §2): the people behind the manager dashboard's "N people
 * to book" for one face-to-face course, most overdue first, and "Book these people" onto one upcoming session of it.
 * Places go in the list's order; the rest join the waiting list in that order; the answer says who got what.
 */
export default function BookingGapPage() {
  const { courseId } = useParams();
  const [params] = useSearchParams();
  const slug = params.get('entity') ?? undefined;
  const gap = useBookingGap(courseId, slug);
  if (gap.isLoading) return <LoadingCard label="Loading the people to book" />;
  if (gap.isError || !gap.data)
    return (
      <LoadError
        error={gap.error}
        fallback="The people to book could not be loaded."
        onRetry={() => void gap.refetch()}
      />
    );
  return <GapBooking gap={gap.data} />;
}

const sessionLabel = (s: TrainingSessionView) =>
  `${sessionWhen(s)} · ${sessionWhere(s)} · ${placesText(s).toLowerCase()}`;

function GapBooking({ gap }: { gap: BookingGapView }) {
  const queryClient = useQueryClient();
  const [sessionId, setSessionId] = useState<number | null>(gap.sessions[0]?.id ?? null);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<GapBookingResult | null>(null);
  const chosen = gap.sessions.find((s) => s.id === sessionId) ?? null;
  const n = gap.people.length;
  const book = async () => {
    if (!chosen || n === 0) return;
    setBusy(true);
    try {
      const res = await bookGap(
        chosen.id,
        gap.people.map((p) => p.user.id),
      );
      setResult(res.data);
      notifySuccess(res.message ?? gapBookedMessage(res.data));
      await queryClient.invalidateQueries({ queryKey: ['bookings'] });
    } catch (error) {
      notifyError(errorEnvelope(error, 'The booking did not go through. Please try again.'), 'Not booked.');
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="space-y-6">
      <PageHeader
        title={`${gap.course.title}: people to book`}
        breadcrumbs={[{ label: 'Manage bookings', to: '/manage-bookings' }, { label: gap.course.title }]}
      />
      {result ? <BookingOutcome result={result} session={chosen} /> : null}
      <Card title="Book these people" data-testid="gap-book">
        {n === 0 ? (
          <p className="text-sm text-slate-700">
            Nobody left to book: everyone out of date has a place or a waiting-list spot.
          </p>
        ) : gap.sessions.length === 0 ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-700">
              No upcoming session of {gap.course.title} that you can add people to. Create one, or order
              places on a training provider’s session from the marketplace in Manage bookings.
            </p>
            <ButtonLink to="/manage-bookings/new">New session</ButtonLink>
          </div>
        ) : (
          <div className="space-y-4">
            <Select
              label="Session"
              value={sessionId ?? ''}
              onChange={(e) => setSessionId(Number(e.target.value))}
              options={gap.sessions.map((s) => ({ value: s.id, label: sessionLabel(s) }))}
            />
            <p className="text-sm text-slate-700">
              Places go most overdue first, in the order below; when the session is full the rest join its
              waiting list in that order. Each person is told.
            </p>
            <Button onClick={() => void book()} disabled={busy || !chosen}>
              {busy ? 'Booking…' : n === 1 ? 'Book this person' : `Book these ${n} people`}
            </Button>
          </div>
        )}
      </Card>
      <Card title={`People to book (${n})`} data-testid="gap-people">
        {n === 0 ? (
          <p className="text-sm text-slate-700">No one.</p>
        ) : (
          <ol className="divide-y divide-slate-100">
            {gap.people.map((p, i) => (
              <li
                key={p.user.id}
                className="flex flex-col gap-1 py-2 sm:flex-row sm:items-center sm:justify-between"
                data-testid="gap-person"
              >
                <div className="min-w-0">
                  <span className="mr-2 text-sm text-slate-500">{i + 1}.</span>
                  <Link to={`/users/${p.user.uuid}`} className={linkClass}>
                    {p.user.name}
                  </Link>
                  <span className="ml-2 text-sm text-slate-600 wrap-anywhere">{p.entity.name}</span>
                </div>
                <CourseStatusBadge status={p.status} date={p.date} attempted={p.attempted} />
              </li>
            ))}
          </ol>
        )}
      </Card>
    </div>
  );
}

function BookingOutcome({
  result,
  session,
}: {
  result: GapBookingResult;
  session: TrainingSessionView | null;
}) {
  return (
    <Card title={result.booked > 0 ? 'Booked' : 'On the waiting list'} data-testid="gap-result">
      <p className="text-sm font-medium text-slate-900" role="status">
        {gapBookedMessage(result)}
      </p>
      {session ? (
        <p className="mt-1 text-sm text-slate-700">
          <Link to={`/manage-bookings/${session.id}`} className={linkClass}>
            {sessionWhen(session)}
          </Link>
        </p>
      ) : null}
      <ul className="mt-2 divide-y divide-slate-100">
        {result.people.map((p) => (
          <li
            key={p.user.id}
            className="flex flex-wrap items-center justify-between gap-2 py-1.5"
            data-testid="gap-outcome"
          >
            <span className="text-sm text-slate-900">{p.user.name}</span>
            {p.outcome === 'booked' ? (
              <Badge tone="success">Booked</Badge>
            ) : p.outcome === 'waitlisted' ? (
              <Badge tone="warning">
                {p.waitlist_position ? `Waiting list, number ${p.waitlist_position}` : 'Waiting list'}
              </Badge>
            ) : (
              <Badge tone="neutral">Already on this session</Badge>
            )}
          </li>
        ))}
      </ul>
    </Card>
  );
}

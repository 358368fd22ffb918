import { BookingsMessages, formatDate, type TrainingSessionView } from '@cc/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../app/api';
import { notifyError, notifySuccess } from '../app/notifications';
import { Badge, Button, Card, CardPagination, EmptyState, SearchInput, Spinner } from '../ui';
import { placesText, SessionFacts, SessionHeading } from './LearnerSessionParts';
import { bookSession, refreshBookings, useAvailableTraining } from './learner-api';

/**
 * "Book training": GET /users/{me}/available-training, the open sessions the learner may book, each with its days,
 * where, and its places free or "waiting list". Book answers with the server's message as a notice (booked, on the
 * waiting list, or sent to the manager for approval) and the lists read again.
 */
export function LearnerAvailableTraining({ me }: { me: number }) {
  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const query = useAvailableTraining(me, page, search);
  const rows = query.data?.data ?? [];
  return (
    <Card
      title="Book training"
      padded={false}
      data-testid="available-training"
      actions={
        <SearchInput
          value={search}
          label="Search training"
          placeholder="Search courses…"
          onSearch={(v) => {
            setSearch(v);
            setPage(1);
          }}
        />
      }
    >
      {query.isPending ? (
        <div className="p-5">
          <Spinner label="Loading the training you can book" />
        </div>
      ) : query.isError ? (
        <EmptyState
          title="The training you can book could not be loaded"
          description={
            (isApiError(query.error) && query.error.data?.message) || 'Please reload the page and try again.'
          }
        />
      ) : rows.length === 0 ? (
        <EmptyState
          title={search ? 'No training matches your search' : 'No sessions open for booking'}
          description={
            search
              ? 'Try another word, or clear the search to see every session you can book.'
              : 'When a face-to-face session you can attend is scheduled, it appears here. Your manager can also book you on one.'
          }
        />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label="Sessions you can book">
          {rows.map((s) => (
            <li key={s.id}>
              <AvailableSession session={s} />
            </li>
          ))}
        </ul>
      )}
      <CardPagination meta={query.data?.meta} onPageChange={setPage} label="Pages of training to book" />
    </Card>
  );
}

function AvailableSession({ session: s }: { session: TrainingSessionView }) {
  const qc = useQueryClient();
  const [busy, setBusy] = useState(false);
  const full = s.places_free <= 0;
  const when = formatDate(s.date);
  const book = async () => {
    setBusy(true);
    try {
      const res = await bookSession(s.id);
      notifySuccess(res.data?.message ?? (full ? BookingsMessages.waitlisted : BookingsMessages.booked));
      await refreshBookings(qc);
    } catch (error) {
      notifyError(isApiError(error) ? error.data : null, 'The session could not be booked.');
      if (isApiError(error) && (error.status === 409 || error.status === 422)) await refreshBookings(qc);
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="space-y-3 px-4 py-4 sm:px-5" data-testid="available-session" data-session-id={s.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <SessionHeading session={s} />
        <Badge tone={full ? 'warning' : 'success'}>{placesText(s)}</Badge>
      </div>
      <SessionFacts session={s} />
      {s.aim ? <p className="text-sm text-slate-700 wrap-anywhere">{s.aim}</p> : null}
      <Button
        size="sm"
        variant={full ? 'secondary' : 'primary'}
        onClick={book}
        loading={busy}
        aria-label={`${full ? 'Join the waiting list for' : 'Book'} ${s.course.title} on ${when}`}
      >
        {full ? 'Join the waiting list' : 'Book'}
      </Button>
    </article>
  );
}

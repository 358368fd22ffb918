import type { UserBookingView } from '@cc/contracts';
import { type ReactNode, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../app/api';
import { useAuth } from '../app/auth';
import { Button, Card, CardPagination, EmptyState, PageHeader, Spinner, Tabs } from '../ui';
import { LearnerAvailableTraining } from './LearnerAvailableTraining';
import { CheckInForm, LearnerBookingCard } from './LearnerBookingCard';
import { LearnerCalendarLink } from './LearnerCalendarLink';
import { type MyBookingsScope, useMyBookings } from './learner-api';

const OFFERS_PAGE = 50;
const TABS = ['upcoming', 'waiting', 'past', 'book'] as const;
type TabKey = (typeof TABS)[number];

/**
 * /your-bookings (108): the learner's face-to-face training. Upcoming (booked, awaiting confirmation or requested),
 * Waiting list (position; an offered place with its claim deadline and "Claim this place"), Past (attendance and
 * result), and Book training (GET /users/{me}/available-training). `?tab=` keeps the section in the address;
 * `?check_in=<session id>` (the trainer's QR) opens that session's check-in code input.
 */
export default function YourBookingsPage() {
  const { user } = useAuth();
  const [search, setSearch] = useSearchParams();
  const checkInParam = Number(search.get('check_in')) || null;
  const rawTab = search.get('tab') as TabKey | null;
  const tab: TabKey = checkInParam ? 'upcoming' : rawTab && TABS.includes(rawTab) ? rawTab : 'upcoming';
  const [pages, setPages] = useState<Record<MyBookingsScope, number>>({
    upcoming: 1,
    waitlisted: 1,
    past: 1,
  });
  const me = user?.id;
  const upcoming = useMyBookings(me, 'upcoming', pages.upcoming);
  const waiting = useMyBookings(me, 'waitlisted', pages.waitlisted);
  const past = useMyBookings(me, 'past', pages.past);
  // An offered place holds a seat, so the server lists it under upcoming; the waiting list shows it too, on top.
  const offers = useMyBookings(me, 'upcoming', 1, OFFERS_PAGE);
  // At 375 px the tab strip scrolls: keep the chosen section's tab in view (Book training is the last one), also
  // when the counts arrive and widen the labels.
  const labelsKey = `${upcoming.data?.meta.total}/${waiting.data?.meta.total}/${offers.data?.meta.total}`;
  useEffect(() => {
    if (!labelsKey) return;
    const list = document.querySelector<HTMLElement>('[data-testid="your-bookings-tabs"] [role="tablist"]');
    const chosen = list?.querySelectorAll<HTMLElement>('[role="tab"]')[TABS.indexOf(tab)];
    if (!list || !chosen) return;
    // Sideways only: the page itself must not jump when a count changes after a booking.
    const outer = list.getBoundingClientRect();
    const inner = chosen.getBoundingClientRect();
    if (inner.right > outer.right) list.scrollLeft += inner.right - outer.right;
    else if (inner.left < outer.left) list.scrollLeft -= outer.left - inner.left;
  }, [tab, labelsKey]);
  if (!user || me === undefined) return null;

  const go = (next: TabKey) =>
    setSearch(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.delete('check_in');
        if (next === 'upcoming') p.delete('tab');
        else p.set('tab', next);
        return p;
      },
      { replace: true },
    );
  const setPage = (scope: MyBookingsScope) => (page: number) => setPages((p) => ({ ...p, [scope]: page }));
  const count = (q: typeof upcoming) => (q.data ? ` (${q.data.meta.total})` : '');
  const offeredRows = offers.data?.data.filter((b) => b.status === 'offered') ?? [];
  const offered = offeredRows.length;
  const checkInBooking = checkInParam
    ? upcoming.data?.data.find((b) => b.session.id === checkInParam)
    : undefined;
  const bookButton = (
    <Button onClick={() => go('book')} data-testid="go-book-training">
      Book training
    </Button>
  );

  return (
    <div className="space-y-6">
      <PageHeader
        title="Your bookings"
        description="Your face-to-face training: what you are booked on, waiting for and have attended."
        actions={tab === 'book' ? null : bookButton}
      />
      {offered > 0 && tab !== 'waiting' ? (
        <div
          className="flex flex-col gap-3 rounded-xl bg-primary-100/60 p-4 ring-1 ring-primary-200 sm:flex-row sm:items-center sm:justify-between"
          role="status"
        >
          <p className="text-sm text-slate-800">
            {offered === 1
              ? 'A place has freed for you on a session you were waiting for. Claim it before it goes to the next person.'
              : `Places have freed for you on ${offered} sessions you were waiting for. Claim them before they go to the next person.`}
          </p>
          <Button variant="secondary" size="sm" onClick={() => go('waiting')}>
            See the offer{offered === 1 ? '' : 's'}
          </Button>
        </div>
      ) : null}
      {checkInParam && upcoming.data && !checkInBooking ? (
        <Card title="Check in" data-testid="check-in-card">
          <CheckInForm
            sessionId={checkInParam}
            title="this session"
            autoFocus
            onDone={() => go('upcoming')}
          />
        </Card>
      ) : null}
      <div data-testid="your-bookings-tabs">
        <Tabs
          label="Your bookings"
          selectedIndex={TABS.indexOf(tab)}
          onChange={(i) => go(TABS[i] ?? 'upcoming')}
          tabs={[
            {
              key: 'upcoming',
              label: `Upcoming${count(upcoming)}`,
              content: (
                <BookingList
                  title="Upcoming"
                  query={upcoming}
                  onPage={setPage('upcoming')}
                  checkInSession={checkInParam}
                  empty={{
                    title: 'You have no upcoming training',
                    description:
                      'Book a face-to-face session and it appears here, with its day, time and place.',
                    action: bookButton,
                  }}
                />
              ),
            },
            {
              key: 'waiting',
              label: `Waiting list${waiting.data ? ` (${waiting.data.meta.total + offered})` : ''}`,
              content: (
                <BookingList
                  title="Waiting list"
                  query={waiting}
                  lead={offeredRows}
                  onPage={setPage('waitlisted')}
                  empty={{
                    title: 'You are not waiting for a place',
                    description:
                      'When a session you want is full, join its waiting list: if a place frees, it is offered to you.',
                    action: bookButton,
                  }}
                />
              ),
            },
            {
              key: 'past',
              label: 'Past',
              content: (
                <BookingList
                  title="Past"
                  past
                  query={past}
                  onPage={setPage('past')}
                  empty={{
                    title: 'No past sessions yet',
                    description:
                      'Sessions you have been booked on appear here afterwards, with your attendance and result.',
                    action: bookButton,
                  }}
                />
              ),
            },
            { key: 'book', label: 'Book training', content: <LearnerAvailableTraining me={me} /> },
          ]}
        />
      </div>
      <LearnerCalendarLink me={me} />
    </div>
  );
}

function BookingList({
  title,
  query,
  onPage,
  empty,
  past = false,
  checkInSession = null,
  lead = [],
}: {
  title: string;
  query: ReturnType<typeof useMyBookings>;
  onPage: (page: number) => void;
  empty: { title: string; description: string; action: ReactNode };
  past?: boolean;
  checkInSession?: number | null;
  /** Cards shown before the list's own (the places offered, on the waiting list). */
  lead?: UserBookingView[];
}) {
  const own: UserBookingView[] = query.data?.data ?? [];
  const rows = [...lead, ...own.filter((b) => !lead.some((l) => l.id === b.id))];
  return (
    <Card padded={false} data-testid={`bookings-${title.toLowerCase().replace(/\s+/g, '-')}`}>
      {query.isPending ? (
        <div className="p-5">
          <Spinner label={`Loading ${title.toLowerCase()}`} />
        </div>
      ) : query.isError ? (
        <EmptyState
          title="Your bookings could not be loaded"
          description={
            (isApiError(query.error) && query.error.data?.message) || 'Please reload the page and try again.'
          }
        />
      ) : rows.length === 0 ? (
        <EmptyState title={empty.title} description={empty.description} action={empty.action} />
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={title}>
          {rows.map((b) => (
            <li key={b.id}>
              <LearnerBookingCard booking={b} past={past} checkInOpen={checkInSession === b.session.id} />
            </li>
          ))}
        </ul>
      )}
      <CardPagination
        meta={query.data?.meta}
        onPageChange={onPage}
        label={`Pages of ${title.toLowerCase()}`}
      />
    </Card>
  );
}

import { type BookingGap, BookingsPerm, formatDate, type TrainingSessionView } from '@cc/contracts';
import { Link } from 'react-router';
import { isApiError } from '../app/api';
import { useAuth, usePermission } from '../app/auth';
import { Badge, Card, Spinner } from '../ui';
import { placesText, sessionPlace } from './LearnerSessionParts';
import { useBookingsDashboard } from './learner-api';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/** Who may see the booking figures: the organisation manages bookings and the user holds 9, 11 or 109. */
export function useCanManageBookings(): boolean {
  const { user } = useAuth();
  const perm = usePermission(
    [BookingsPerm.createBookings, BookingsPerm.editBooking, BookingsPerm.trainingProviderBookings],
    'any',
  );
  if (!user) return false;
  return user.super_admin || (perm && Boolean(user.a_entity?.can_manage_bookings));
}

/**
 * /manage-bookings narrowed to a gap's course. The sessions list filters by face-to-face content (`?content=<id>:<label>`,
 * the list's own filter; TrainingSessionsQuery has no course filter): the content of the course's next session when
 * there is one, else the list searched by the course's title.
 */
export function manageBookingsForGap(gap: Pick<BookingGap, 'course' | 'next_session'>): string {
  const next = gap.next_session;
  const params = new URLSearchParams(
    next ? { content: `${next.contentId}:${next.content.title}` } : { search: gap.course.title },
  );
  return `/manage-bookings?${params.toString()}`;
}

/** The gap's people, most overdue first, with "Book these people" (issue 33 §2). */
export const gapLink = (courseId: number, entitySlug: string | undefined) =>
  `/manage-bookings/gaps/${courseId}${entitySlug ? `?entity=${encodeURIComponent(entitySlug)}` : ''}`;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The manager dashboard's booking card (GET /dashboards/bookings over the dashboard's organisation and those
 * below it): this week's sessions with their free places, and the gaps a session would close — each
 * Mandatory/Required face-to-face course with people not in date, how many are already booked, the next session to
 * book them on, and a link to /manage-bookings for that course. Hidden from those who cannot manage bookings.
 */
export function BookingManagerWidget({ entitySlug }: { entitySlug: string | undefined }) {
  const allowed = useCanManageBookings();
  const query = useBookingsDashboard(entitySlug, allowed && Boolean(entitySlug));
  if (!allowed) return null;
  const d = query.data;
  return (
    <Card
      title="Face-to-face training"
      data-testid="bookings-widget"
      actions={
        <Link to="/manage-bookings" className={linkClass}>
          Manage bookings
        </Link>
      }
    >
      {query.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          {(isApiError(query.error) && query.error.data?.message) ||
            'The booking figures could not be loaded. Please reload the page.'}
        </p>
      ) : !d ? (
        <Spinner label="Loading the booking figures" />
      ) : (
        <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
          <section aria-labelledby="bookings-week-title" className="min-w-0">
            <h3 id="bookings-week-title" className="text-sm font-semibold text-slate-900">
              Sessions this week
            </h3>
            <p className="mt-1 text-sm text-slate-700" data-testid="bookings-week-summary">
              {d.sessions_this_week.length === 0
                ? 'No sessions this week.'
                : `${plural(d.sessions_this_week.length, 'session')}, ${plural(d.places_free_this_week, 'place')} free.`}
            </p>
            {d.sessions_this_week.length ? (
              <ul className="mt-2 divide-y divide-slate-100">
                {d.sessions_this_week.map((s) => (
                  <WeekSession key={s.id} s={s} />
                ))}
              </ul>
            ) : null}
          </section>
          <section aria-labelledby="bookings-gaps-title" className="min-w-0">
            <h3 id="bookings-gaps-title" className="text-sm font-semibold text-slate-900">
              Gaps a session would close
            </h3>
            {d.gaps.length === 0 ? (
              <p className="mt-1 text-sm text-slate-700">
                No gaps: everyone is in date on their face-to-face courses.
              </p>
            ) : (
              <ul className="mt-2 divide-y divide-slate-100" data-testid="bookings-gaps">
                {d.gaps.map((g) => {
                  const waiting = g.people_not_in_date - g.people_booked;
                  return (
                    <li key={g.course.id} className="space-y-1 py-2" data-testid="bookings-gap">
                      <div className="flex flex-wrap items-baseline justify-between gap-2">
                        <Link to={manageBookingsForGap(g)} className={linkClass}>
                          {g.course.title}
                        </Link>
                        {waiting > 0 ? (
                          <Link
                            to={gapLink(g.course.id, entitySlug)}
                            className="focus-ring inline-flex min-h-6 items-center rounded-full bg-danger-100 px-2 py-0.5 text-xs font-medium text-danger-800 underline decoration-danger-300 underline-offset-2 ring-1 ring-danger-500/30 ring-inset hover:decoration-danger-700"
                            aria-label={`${plural(waiting, 'person', 'people')} to book on ${g.course.title}: see who and book them`}
                          >
                            {`${plural(waiting, 'person', 'people')} to book`}
                          </Link>
                        ) : (
                          <Badge tone="success">All booked</Badge>
                        )}
                      </div>
                      <p className="text-sm text-slate-700">
                        {plural(g.people_not_in_date, 'person', 'people')} not in date, {g.people_booked}{' '}
                        already booked.
                      </p>
                      <p className="text-sm text-slate-600">
                        {g.next_session
                          ? `Next session ${formatDate(g.next_session.date)} at ${g.next_session.startTime}, ${placesText(g.next_session).toLowerCase()}.`
                          : 'No session scheduled: create one to close this gap.'}
                      </p>
                    </li>
                  );
                })}
              </ul>
            )}
          </section>
        </div>
      )}
    </Card>
  );
}

function WeekSession({ s }: { s: TrainingSessionView }) {
  return (
    <li className="flex flex-col gap-1 py-2 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <p className="font-medium text-slate-900 wrap-anywhere">{s.course.title}</p>
        <p className="text-sm text-slate-600 wrap-anywhere">
          {formatDate(s.date)}, {s.startTime}–{s.endTime} · {sessionPlace(s)}
        </p>
      </div>
      <div className="shrink-0">
        <Badge tone={s.places_free > 0 ? 'success' : 'warning'}>{placesText(s)}</Badge>
      </div>
    </li>
  );
}

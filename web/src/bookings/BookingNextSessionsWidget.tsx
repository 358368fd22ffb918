import { BookingsPerm } from '@cc/contracts';
import { Link } from 'react-router';
import { usePermission } from '../app/auth';
import { ButtonLink, Card, Spinner } from '../ui';
import { StatusBadge, sessionDays, sessionPlace } from './LearnerSessionParts';
import { useMyBookings } from './learner-api';

const linkClass =
  'focus-ring rounded font-medium text-primary-800 underline decoration-primary-300 underline-offset-2 hover:decoration-primary-700';

/**
 * The learner dashboard's "My next sessions": the next three of GET /users/{me}/bookings?scope=upcoming, each with
 * its day, time and place, and the way to /your-bookings. Shown only to those who may book their own training (108).
 */
export function BookingNextSessionsWidget({ me }: { me: number }) {
  const allowed = usePermission([BookingsPerm.ownBookings]);
  const query = useMyBookings(me, 'upcoming', 1, 3, allowed);
  if (!allowed) return null;
  const rows = query.data?.data ?? [];
  const more = (query.data?.meta.total ?? 0) - rows.length;
  return (
    <Card
      title="My next sessions"
      data-testid="next-sessions"
      actions={
        <Link to="/your-bookings" className={linkClass}>
          Your bookings
        </Link>
      }
    >
      {query.isPending ? (
        <Spinner label="Loading your next sessions" />
      ) : query.isError ? (
        <p className="text-sm text-danger-700" role="alert">
          Your sessions could not be loaded. Please reload the page.
        </p>
      ) : rows.length === 0 ? (
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-700">You are not booked on any face-to-face training.</p>
          <ButtonLink to="/your-bookings?tab=book" size="sm" variant="secondary">
            Book training
          </ButtonLink>
        </div>
      ) : (
        <>
          <ul className="divide-y divide-slate-100">
            {rows.map((b) => {
              const first = sessionDays(b.session)[0];
              return (
                <li
                  key={b.id}
                  className="flex flex-col gap-1 py-3 first:pt-0 sm:flex-row sm:items-start sm:justify-between"
                  data-testid="next-session"
                >
                  <div className="min-w-0">
                    <p className="font-medium text-slate-900 wrap-anywhere">{b.session.course.title}</p>
                    <p className="text-sm text-slate-700">
                      {first?.text}
                      {b.session.dates.length > 1 ? ` (+${b.session.dates.length - 1} more days)` : ''}
                    </p>
                    <p className="text-sm text-slate-600 wrap-anywhere">{sessionPlace(b.session)}</p>
                  </div>
                  <div className="shrink-0">
                    <StatusBadge status={b.status} />
                  </div>
                </li>
              );
            })}
          </ul>
          {more > 0 ? (
            <p className="mt-2 text-sm">
              <Link to="/your-bookings" className={linkClass}>
                {more === 1 ? '1 more upcoming session' : `${more} more upcoming sessions`}
              </Link>
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}

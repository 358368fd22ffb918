import type {
  BookingsDashboard,
  CalendarFeedView,
  CheckInBody,
  Paged,
  TrainingSessionView,
} from '@cc/contracts';
import { keepPreviousData, type QueryClient, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';
import { myBookingsPage } from '../app/graphql/operations';
import { downloadFile } from '../native/files';

/**
 * The learner's booking calls (contracts bookings.ts) through THE api client: their own bookings, the training they
 * may book, booking, claiming an offered place, cancelling, self check-in, "add to calendar", the personal calendar
 * feed, and the manager dashboard's booking figures. Query keys live under ['bookings', …] so one invalidation after
 * any booking write refreshes the learner's lists, the dashboards' widgets and /manage-bookings alike.
 */

export type MyBookingsScope = 'upcoming' | 'waitlisted' | 'past';

export const learnerBookingKeys = {
  all: ['bookings'] as const,
  mine: (me: number, scope: MyBookingsScope, page: number, perPage: number) =>
    ['bookings', 'mine', me, scope, page, perPage] as const,
  available: (me: number, page: number, search: string) =>
    ['bookings', 'available', me, page, search] as const,
  feed: (me: number) => ['bookings', 'calendar-feed', me] as const,
  dashboard: (slug: string | undefined, deep: boolean) =>
    ['bookings', 'dashboard', slug ?? '', deep] as const,
};

export const MY_BOOKINGS_PAGE = 10;

/** GET /users/{id}/bookings?scope=…: the user's bookings, each with its session. */
export function useMyBookings(
  me: number | undefined,
  scope: MyBookingsScope,
  page: number,
  perPage = MY_BOOKINGS_PAGE,
  enabled = true,
) {
  return useQuery({
    queryKey: learnerBookingKeys.mine(me ?? 0, scope, page, perPage),
    enabled: enabled && me !== undefined,
    placeholderData: keepPreviousData,
    // GraphQL (spec 2 §7 "bookings"): web/src/app/graphql/README.md.
    queryFn: () => myBookingsPage(me as number, scope, page, perPage),
  });
}

/** GET /users/{id}/available-training: open sessions the user may book (a free place or a waiting list). */
export function useAvailableTraining(me: number | undefined, page: number, search: string, enabled = true) {
  return useQuery({
    queryKey: learnerBookingKeys.available(me ?? 0, page, search),
    enabled: enabled && me !== undefined,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Paged<TrainingSessionView>>(`/users/${me}/available-training`, {
          params: { page, per_page: MY_BOOKINGS_PAGE, search: search || undefined },
        })
      ).data,
  });
}

/** The answers of the booking writes: the server's message is what the learner reads (booked, waitlisted, …). */
type Answer = Envelope<unknown> & { message?: string };

/** POST /training-sessions/{id}/book for oneself: a place, the waiting list, or a request to one's manager. */
export const bookSession = (sessionId: number) =>
  api.post<Answer>(`/training-sessions/${sessionId}/book`, { context: 'online' });
/** DELETE /delegates/{id}: the learner cancels their own booking (before the provider's cut-off). */
export const cancelBooking = (delegateId: number) => api.delete<Answer>(`/delegates/${delegateId}`);
/** POST /delegates/{id}/claim: take the place offered from the waiting list before the offer expires. */
export const claimPlace = (delegateId: number) => api.post<Answer>(`/delegates/${delegateId}/claim`);
/** POST /training-sessions/{id}/check-in with the trainer's code, on the day. */
export const checkIn = (sessionId: number, body: CheckInBody) =>
  api.post<Answer>(`/training-sessions/${sessionId}/check-in`, body);

/**
 * "Add to calendar": GET /training-sessions/{id}/calendar.ics saved as a file. The client reads a text/* body as
 * `{message}`, so the calendar text is turned back into a file here.
 */
export function downloadSessionIcs(sessionId: number): Promise<boolean> {
  return downloadFile(
    async () => {
      const res = await api.get<Blob | { message?: string }>(`/training-sessions/${sessionId}/calendar.ics`);
      const data =
        res.data instanceof Blob
          ? res.data
          : new Blob([res.data?.message ?? ''], { type: 'text/calendar;charset=utf-8' });
      return { ...res, data };
    },
    { fallbackName: `training-session-${sessionId}.ics`, failure: 'The calendar file could not be made.' },
  );
}

/** GET /users/{id}/calendar-feed: whether the personal feed is on (its URL is only shown when made). */
export function useCalendarFeed(me: number | undefined) {
  return useQuery({
    queryKey: learnerBookingKeys.feed(me ?? 0),
    enabled: me !== undefined,
    queryFn: async () => (await api.get<Envelope<CalendarFeedView>>(`/users/${me}/calendar-feed`)).data.data,
  });
}
export const createCalendarFeed = (me: number) =>
  api.post<Envelope<CalendarFeedView>>(`/users/${me}/calendar-feed`);
export const revokeCalendarFeed = (me: number) =>
  api.delete<Envelope<CalendarFeedView> | null>(`/users/${me}/calendar-feed`);

/**
 * GET /dashboards/bookings over the manager dashboard's organisation (its slug as actingAs) and its descendants:
 * this week's sessions, the places free, and the gaps a session would close.
 */
export function useBookingsDashboard(slug: string | undefined, enabled: boolean, deep = true) {
  return useQuery({
    queryKey: learnerBookingKeys.dashboard(slug, deep),
    enabled,
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Envelope<BookingsDashboard>>('/dashboards/bookings', {
          params: { actingAs: slug, deep },
        })
      ).data.data,
  });
}

/** After any booking write: every booking list and widget reads again. */
export const refreshBookings = (client: QueryClient) =>
  client.invalidateQueries({ queryKey: learnerBookingKeys.all });

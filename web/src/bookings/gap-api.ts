import type { BookingGapView, GapBookingResult } from '@cc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, type Envelope } from '../app/api';

/**
 * Booking the gaps (issue 33 §2): GET /booking-gaps/{courseId} over the manager dashboard's organisation (its slug as
 * actingAs) and those below it, and POST /training-sessions/{id}/gap-bookings. Keys under ['bookings'] so a booking
 * refreshes the dashboard's figures and the session lists too.
 */
export const gapKey = (courseId: string, slug: string | undefined) =>
  ['bookings', 'gap', courseId, slug ?? ''] as const;

export function useBookingGap(courseId: string | undefined, slug: string | undefined) {
  return useQuery({
    queryKey: gapKey(courseId ?? '', slug),
    enabled: Boolean(courseId),
    placeholderData: keepPreviousData,
    queryFn: async () =>
      (
        await api.get<Envelope<BookingGapView>>(`/booking-gaps/${courseId}`, {
          params: { ...(slug ? { actingAs: slug } : {}), deep: true },
        })
      ).data.data,
  });
}

export const bookGap = async (sessionId: number, users: number[]) =>
  (await api.post<Envelope<GapBookingResult>>(`/training-sessions/${sessionId}/gap-bookings`, { users }))
    .data;

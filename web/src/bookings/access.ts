import { BookingsPerm } from '@cc/contracts';
import { useMemo } from 'react';
import { useActingAs } from '../app/acting-as';
import { useAuth, usePermissionChecker } from '../app/auth';

/**
 * What the signed-in user may do on /manage-bookings (contracts bookings.ts "Who may do what"): the page needs the
 * entity's can_manage_bookings and 9/11/109/128, or being a trainer (who sees their own sessions). The a_entity
 * flags are the acting-as entity's over the user's own, as the side navigation reads them.
 */
export function useBookingsAccess() {
  const { user } = useAuth();
  const actingAs = useActingAs();
  const can = usePermissionChecker();
  return useMemo(() => {
    const flags = { ...(user?.a_entity ?? {}), ...(actingAs ?? {}) } as Record<string, unknown>;
    const manages =
      flags.can_manage_bookings !== false &&
      can(
        [
          BookingsPerm.createBookings,
          BookingsPerm.editBooking,
          BookingsPerm.trainingProviderBookings,
          BookingsPerm.markDelegates,
        ],
        'any',
      );
    const trainer = Boolean(user?.is_trainer);
    const external = flags.can_view_external_bookings === true || Boolean(user?.super_admin);
    return {
      userId: user?.id ?? 0,
      manages,
      trainer,
      /** A trainer without a manager's permissions sees only their own sessions ("My sessions"). */
      trainerOnly: trainer && !manages,
      create: can([BookingsPerm.createBookings]),
      marketplace: external && can([BookingsPerm.createBookings, BookingsPerm.requestBookings], 'any'),
      orders: external && can([BookingsPerm.createBookings, BookingsPerm.trainingProviderBookings], 'any'),
    };
  }, [user, actingAs, can]);
}

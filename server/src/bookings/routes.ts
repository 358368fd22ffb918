import type { App } from '../http/app-types';
import { calendarRoutes } from './calendar-routes';
import { delegateRoutes } from './delegate-routes';
import { gapRoutes } from './gap-routes';
import { sessionRoutes } from './session-routes';
import { settingsRoutes } from './settings-routes';

/** Face-to-face training (issue 15; contracts bookings.ts). Each part registers its own calls. */
export async function bookingRoutes(app: App) {
  await sessionRoutes(app);
  await delegateRoutes(app);
  await settingsRoutes(app);
  await calendarRoutes(app);
  await gapRoutes(app);
}

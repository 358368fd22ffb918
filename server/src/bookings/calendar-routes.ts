import { BookingsMessages, UserRefParams } from '@cc/contracts';
import { z } from 'zod';
import type { App } from '../http/app-types';
import { ok } from '../http/envelope';
import { notFound } from '../http/errors';
import {
  calendarFeedIcs,
  createCalendarFeed,
  getCalendarFeed,
  revokeCalendarFeed,
  sessionIcs,
} from './calendar';

const TokenParams = z.object({ token: z.string().min(1).max(100) });
const SessionRefParams = z.object({ id: z.string().min(1).max(64) });
const CALENDAR = 'text/calendar; charset=utf-8';

/** The personal calendar feed and "add to calendar" (calendar.ts). HTTP only. */
export async function calendarRoutes(app: App) {
  const tags = ['bookings'];
  app.get('/users/:id/calendar-feed', { schema: { tags, params: UserRefParams } }, async (r) =>
    ok(await getCalendarFeed(r.ctx, r.params.id)),
  );
  app.post('/users/:id/calendar-feed', { schema: { tags, params: UserRefParams } }, async (r, reply) =>
    reply
      .status(201)
      .header('cache-control', 'no-store')
      .send(ok(await createCalendarFeed(r.ctx, r.params.id), BookingsMessages.calendarFeedCreated)),
  );
  app.delete('/users/:id/calendar-feed', { schema: { tags, params: UserRefParams } }, async (r) =>
    ok(await revokeCalendarFeed(r.ctx, r.params.id), BookingsMessages.calendarFeedRevoked),
  );

  // No sign-in: calendar apps fetch it on their own. The token is the secret (only its hash is stored).
  app.get(
    '/calendar/:token.ics',
    { config: { auth: false }, schema: { tags, params: TokenParams } },
    async (r, reply) => {
      const ics = await calendarFeedIcs(r.ctx, r.params.token);
      if (ics === null) throw notFound();
      return reply
        .header('content-type', CALENDAR)
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(ics);
    },
  );

  app.get(
    '/training-sessions/:id/calendar.ics',
    { schema: { tags, params: SessionRefParams } },
    async (r, reply) =>
      reply
        .header('content-type', CALENDAR)
        .header('content-disposition', 'attachment; filename="session.ics"')
        .header('cache-control', 'private, no-store')
        .header('x-content-type-options', 'nosniff')
        .send(await sessionIcs(r.ctx, r.params.id)),
  );
}

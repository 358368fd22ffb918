import {
  NotificationLedgerQuery,
  NotificationListQuery,
  NotificationMessages,
  NotificationParams,
  UpdateNotificationBody,
  UserRefParams,
} from '@cc/contracts';
import type { App } from '../http/app-types';
import { done, ok, paginate } from '../http/envelope';
import {
  dismissNotification,
  listNotifications,
  readAllNotifications,
  updateNotificationRead,
  userNotificationLedger,
} from './service';

/** In-app notifications (the caller's own) and a user's delivery ledger (issue 14; ours). HTTP only. */
export async function notificationRoutes(app: App) {
  const tags = ['notifications'];
  app.get('/notifications', { schema: { tags, querystring: NotificationListQuery } }, async (r) => {
    const { data, total, unread } = await listNotifications(r.ctx, r.query);
    return { ...paginate(data, total, r.query, r.url), unread_count: unread };
  });
  app.post('/notifications/read-all', { schema: { tags } }, async (r) =>
    done(NotificationMessages.allRead, await readAllNotifications(r.ctx)),
  );
  app.patch(
    '/notifications/:id',
    { schema: { tags, params: NotificationParams, body: UpdateNotificationBody } },
    async (r) =>
      ok(await updateNotificationRead(r.ctx, r.params.id, r.body.read), NotificationMessages.updated),
  );
  app.delete('/notifications/:id', { schema: { tags, params: NotificationParams } }, async (r) => {
    await dismissNotification(r.ctx, r.params.id);
    return done(NotificationMessages.dismissed);
  });
  app.get(
    '/users/:id/notifications',
    { schema: { tags: ['users'], params: UserRefParams, querystring: NotificationLedgerQuery } },
    async (r) => {
      const { data, total } = await userNotificationLedger(r.ctx, r.params.id, r.query);
      return paginate(data, total, r.query, r.url);
    },
  );
}

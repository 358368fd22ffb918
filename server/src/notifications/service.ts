import {
  DashboardsPerm,
  type Notification,
  type NotificationDelivery,
  type NotificationListQuery,
  ResultsPerm,
} from '@cc/contracts';
import { assertEntityInScope } from '../entities/scope';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { findUserByRef } from '../users/queries';
import { inAppPage, ledgerPage, markAllRead, type NotificationRow, setInAppState } from './queries';

/**
 * In-app notifications and the delivery ledger (issue 14). A notification is its recipient's own: anyone else's id
 * answers 404 like a missing one ("notifications are added and removed by id", spec 1 §3). The ledger of another
 * user needs them in the caller's scope (404 otherwise) and the manager dashboard (105) or search training records
 * (24): the people who chase training are the ones who need to know a reminder never arrived.
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

type InAppRow = Pick<NotificationRow, 'id' | 'kind' | 'title' | 'body' | 'link' | 'state' | 'created_at'>;

export function presentNotification(r: InAppRow): Notification {
  return {
    id: r.id,
    kind: r.kind,
    title: r.title,
    body: r.body,
    link: r.link,
    read: r.state === 'read',
    created_at: new Date(r.created_at).toISOString(),
  };
}

/** GET /notifications: the caller's own, newest first. */
export async function listNotifications(ctx: Ctx, q: NotificationListQuery) {
  const actor = actorOf(ctx);
  const { rows, total, unread } = await inAppPage(ctx.db, actor.userId, {
    unreadOnly: q.unread === true,
    limit: q.per_page,
    offset: (q.page - 1) * q.per_page,
  });
  return { data: rows.map(presentNotification), total, unread };
}

/** PATCH /notifications/{id} `{read}`. */
export async function updateNotificationRead(ctx: Ctx, id: number, read: boolean): Promise<Notification> {
  const actor = actorOf(ctx);
  const row = await setInAppState(ctx.db, id, actor.userId, read ? 'read' : 'sent', ctx.clock());
  if (!row) throw notFound();
  return presentNotification(row);
}

/** DELETE /notifications/{id}: dismissed (kept in the ledger, so a manager still sees it was delivered). */
export async function dismissNotification(ctx: Ctx, id: number): Promise<void> {
  const actor = actorOf(ctx);
  if (!(await setInAppState(ctx.db, id, actor.userId, 'dismissed', ctx.clock()))) throw notFound();
}

/** POST /notifications/read-all. */
export async function readAllNotifications(ctx: Ctx): Promise<{ updated: number }> {
  const actor = actorOf(ctx);
  return { updated: await markAllRead(ctx.db, actor.userId, ctx.clock()) };
}

/** GET /users/{id}/notifications: one user's delivery ledger, every channel and state. */
export async function userNotificationLedger(
  ctx: Ctx,
  ref: string,
  page: { page: number; per_page: number },
) {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (!user) throw notFound();
  if (user.id !== actor.userId) {
    await assertEntityInScope(ctx, user.primary_entity_id);
    authorize(ctx, [DashboardsPerm.managerDashboard, ResultsPerm.searchTrainingRecords], 'any');
  }
  const { rows, total } = await ledgerPage(ctx.db, user.id, {
    limit: page.per_page,
    offset: (page.page - 1) * page.per_page,
  });
  const data = rows.map(
    (r): NotificationDelivery => ({
      id: r.id,
      kind: r.kind,
      occasion: r.occasion,
      title: r.title,
      course: r.course_id !== null ? { id: r.course_id, title: r.course_title ?? '' } : null,
      expires_at: iso(r.expires_at),
      channel: r.channel,
      state: r.state,
      attempts: r.attempts,
      next_attempt_at: iso(r.next_attempt_at),
      last_error: r.last_error,
      created_at: new Date(r.created_at).toISOString(),
      sent_at: iso(r.sent_at),
      read_at: iso(r.read_at),
      device_name: r.device_name,
      fallback: r.fallback,
    }),
  );
  return { data, total };
}

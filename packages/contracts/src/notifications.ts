import { z } from 'zod';
import { PageQuery } from './common';
import { PUSH_FALLBACK_REASONS, PUSH_FALLBACK_TEXT } from './push';

/**
 * In-app notifications and the delivery ledger (issue 14 "Reminders and notifications"; beyond the spec, which
 * says only "notifications are added and removed by id", spec 1 §3). Ours:
 * - GET /notifications: the caller's own in-app notifications, newest first, paged, with the unread count;
 * - PATCH /notifications/{id} `{read}`; DELETE /notifications/{id} dismisses; POST /notifications/read-all;
 * - GET /users/{id}/notifications: the delivery ledger of one user (every channel and state), for their manager.
 */
export const NOTIFICATION_KINDS = [
  'expiry_reminder',
  'manager_digest',
  'booking',
  'care_certificate',
  'message',
  'document_reminder',
  'due_reminder',
  'behind_reminder',
  'exemption_ended',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
export const NOTIFICATION_CHANNELS = ['in_app', 'email', 'push'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];
export const NOTIFICATION_STATES = [
  'pending',
  'held',
  'sent',
  'failed',
  'read',
  'dismissed',
  'skipped',
] as const;
export type NotificationState = (typeof NOTIFICATION_STATES)[number];

/** Days before expiry a learner is reminded; 0 = on the day it expires. 7 and 0 cannot be turned off. */
export const EXPIRY_REMINDER_DAYS = [90, 60, 30, 7, 0] as const;
export const OPTIONAL_EXPIRY_REMINDER_DAYS = [90, 60, 30] as const;

/**
 * The user_preferences keys of the optional notifications (PATCH /users/{id} user_preferences, GraphQL
 * updatePreferences): absent or true = on, false = off.
 */
export const NOTIFICATION_PREFERENCES = {
  expiry90: 'notify_expiry_90',
  expiry60: 'notify_expiry_60',
  expiry30: 'notify_expiry_30',
  managerDigest: 'notify_manager_digest',
} as const;
export type NotificationPreferenceKey =
  (typeof NOTIFICATION_PREFERENCES)[keyof typeof NOTIFICATION_PREFERENCES];

export const NotificationListQuery = PageQuery.pick({ page: true, per_page: true }).extend({
  unread: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export type NotificationListQuery = z.infer<typeof NotificationListQuery>;

export const NotificationParams = z.object({ id: z.coerce.number().int().positive() });

export const UpdateNotificationBody = z.object({
  read: z.boolean({ message: 'The read field must be true or false.' }),
});
export type UpdateNotificationBody = z.infer<typeof UpdateNotificationBody>;

/** One in-app notification as its recipient sees it. */
export const Notification = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  title: z.string(),
  body: z.string(),
  /** An app path (the learner's dashboard, the manager dashboard). */
  link: z.string(),
  read: z.boolean(),
  created_at: z.string(),
});
export type Notification = z.infer<typeof Notification>;

/** One row of the delivery ledger (GET /users/{id}/notifications). */
export const NotificationDelivery = z.object({
  id: z.number(),
  kind: z.enum(NOTIFICATION_KINDS),
  occasion: z.string(),
  title: z.string(),
  course: z.object({ id: z.number(), title: z.string() }).nullable(),
  expires_at: z.string().nullable(),
  channel: z.enum(NOTIFICATION_CHANNELS),
  state: z.enum(NOTIFICATION_STATES),
  attempts: z.number(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
  read_at: z.string().nullable(),
  /** A push row: the phone it went to (its name when it was sent). */
  device_name: z.string().nullable(),
  /** An e-mail sent instead of a push: why. */
  fallback: z.enum(PUSH_FALLBACK_REASONS).nullable(),
});
export type NotificationDelivery = z.infer<typeof NotificationDelivery>;

export const NotificationLedgerQuery = PageQuery.pick({ page: true, per_page: true });

export const NotificationMessages = {
  updated: 'Notification updated.',
  dismissed: 'Notification dismissed.',
  allRead: 'All notifications marked as read.',
} as const;

/** The ledger's state in plain words ("Held until 07:00", "Failed after 5 attempts: ..."). */
export function describeDelivery(
  d: Pick<NotificationDelivery, 'channel' | 'state' | 'attempts' | 'next_attempt_at' | 'last_error'> &
    Partial<Pick<NotificationDelivery, 'device_name' | 'fallback'>>,
  formatTime: (iso: string) => string,
): string {
  if (d.channel === 'push') return describePush(d);
  const text = describeState(d, formatTime);
  return d.channel === 'email' && d.fallback && d.state === 'sent'
    ? `Sent instead of a push: ${PUSH_FALLBACK_TEXT[d.fallback]}`
    : text;
}

/** A push row: one attempt to one phone. */
function describePush(
  d: Pick<NotificationDelivery, 'state' | 'last_error'> & { device_name?: string | null },
) {
  const phone = d.device_name ? ` to ${d.device_name}` : '';
  if (d.state === 'sent') return `Pushed${phone}`;
  return `Push${phone} failed${d.last_error ? `: ${d.last_error}` : ''}`;
}

function describeState(
  d: Pick<NotificationDelivery, 'channel' | 'state' | 'attempts' | 'next_attempt_at' | 'last_error'>,
  formatTime: (iso: string) => string,
): string {
  switch (d.state) {
    case 'pending':
      return d.attempts > 0 && d.next_attempt_at
        ? `Retrying at ${formatTime(d.next_attempt_at)} (${d.attempts} failed ${d.attempts === 1 ? 'attempt' : 'attempts'})`
        : 'Queued';
    case 'held':
      return d.next_attempt_at
        ? `Held until ${formatTime(d.next_attempt_at)} (quiet hours)`
        : 'Held (quiet hours)';
    case 'sent':
      return d.channel === 'in_app' ? 'Delivered, not read yet' : 'Sent';
    case 'failed':
      return `Failed after ${d.attempts} ${d.attempts === 1 ? 'attempt' : 'attempts'}${d.last_error ? `: ${d.last_error}` : ''}`;
    case 'read':
      return 'Read';
    case 'dismissed':
      return 'Dismissed';
    case 'skipped':
      return 'Not sent: the push notification reached the phone';
  }
}

/** "HH:MM" (24-hour) or null: an organisation's quiet hours start or end. */
export const QuietHoursTime = z
  .string()
  .regex(/^([01][0-9]|2[0-3]):[0-5][0-9]$/, 'Quiet hours must be a time such as 22:00.')
  .nullable()
  .optional();

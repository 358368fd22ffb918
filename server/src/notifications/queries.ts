import { type Insertable, type Selectable, type SqlBool, sql } from 'kysely';
import { pendingSql, requirementDueAtSql } from '../compliance/queries';
import type { Db } from '../db/connect';
import type { NotificationsTable } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';

/**
 * SQL of the delivery ledger (STYLE.md "SQL in one place"). A reminder is recorded at most once by the ledger's
 * unique key (kind, subject_key, occasion, user_id, channel): inserts are single statements with ON CONFLICT DO
 * NOTHING, and only what a statement inserted comes back to be delivered.
 */
export type NotificationRow = Selectable<NotificationsTable>;
export type NewNotification = Insertable<NotificationsTable>;

const DAY = "interval '1 day'";

/** `user_preferences -> key` is not false: an optional notification is on unless the user turned it off. */
const prefOn = (key: string) => sql<SqlBool>`(u.user_preferences -> ${key}) IS DISTINCT FROM 'false'::jsonb`;

/**
 * Every (user, required course) whose expiry reminder is due at `now`, with the occasion due: the most urgent of
 * 90/60/30/7 days the expiry is within, or 0 within the day after it expired (a course that expired long ago gets
 * none: the reminders start with the feature, not with history). The cells are user_requirements rows, the compliance
 * core's "required courses of a user" (the effective rules of their role in their primary entity, with the latest
 * result), so reminders cover exactly what the matrix and the dashboards count. Rules of the organisation (the
 * user's primary entity): events_reminder off sends none; 90/60/30 only when expiry_warning reaches that far and the
 * user has not turned that one off; 7 and 0 always.
 */
export async function dueExpiryReminders(db: DbOrTrx, now: Date, prefKeys: Record<90 | 60 | 30, string>) {
  const occasion = sql<number | null>`CASE
      WHEN ur.expires_at <= ${now} THEN CASE WHEN ur.expires_at > ${now}::timestamptz - ${sql.raw(DAY)} THEN 0 END
      WHEN ur.expires_at <= ${now}::timestamptz + 7 * ${sql.raw(DAY)} THEN 7
      WHEN ur.expires_at <= ${now}::timestamptz + 30 * ${sql.raw(DAY)} THEN 30
      WHEN ur.expires_at <= ${now}::timestamptz + 60 * ${sql.raw(DAY)} THEN 60
      ELSE 90 END`;
  const rows = await db
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('courses as c', 'c.id', 'ur.course_id')
    .where('ur.passed', '=', true)
    .where('ur.expires_at', 'is not', null)
    .where('ur.expires_at', '>', sql<Date>`${now}::timestamptz - ${sql.raw(DAY)}`)
    .where('ur.expires_at', '<=', sql<Date>`${now}::timestamptz + 90 * ${sql.raw(DAY)}`)
    .where('e.events_reminder', '=', true)
    .select([
      'ur.user_id',
      'ur.course_id',
      'ur.expires_at',
      // An exemption's end is an expiry too (its end date): the same reminders, in its own words.
      'ur.exempt',
      'u.primary_entity_id as entity_id',
      'u.email',
      'c.title as course_title',
      'e.expiry_warning',
      occasion.as('occasion'),
      prefOn(prefKeys[90]).as('want_90'),
      prefOn(prefKeys[60]).as('want_60'),
      prefOn(prefKeys[30]).as('want_30'),
    ])
    .execute();
  return rows.filter((r) => {
    if (r.occasion === null) return false;
    if (r.occasion === 0 || r.occasion === 7) return true;
    const wanted = r.occasion === 90 ? r.want_90 : r.occasion === 60 ? r.want_60 : r.want_30;
    return r.expiry_warning >= r.occasion && wanted;
  }) as (Omit<(typeof rows)[number], 'occasion' | 'expires_at'> & { occasion: number; expires_at: Date })[];
}

/**
 * Every (user, required course) never done whose new requirement's due date (issue 33 §4: compliance_rules.due_at,
 * through requirementDueAtSql) falls within `days` from `now`, in organisations that send reminders, without a
 * record awaiting approval: the "due soon" reminder, once per due date by the ledger's key.
 */
export async function dueSoonReminders(db: DbOrTrx, now: Date, days: number) {
  const dueAt = requirementDueAtSql('ur');
  return db
    .selectFrom('user_requirements as ur')
    .innerJoin('users as u', 'u.id', 'ur.user_id')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .innerJoin('courses as c', 'c.id', 'ur.course_id')
    .where(sql<SqlBool>`ur.passed IS NOT TRUE`)
    .where('e.events_reminder', '=', true)
    .where(
      sql<SqlBool>`${dueAt} > ${now} AND ${dueAt} <= ${now}::timestamptz + make_interval(days => ${days})`,
    )
    .where(sql<SqlBool>`NOT ${pendingSql(sql.ref('ur.user_id'), sql.ref('ur.course_id'))}`)
    .select([
      'ur.user_id',
      'ur.course_id',
      'u.primary_entity_id as entity_id',
      'c.title as course_title',
      sql<boolean>`c.kind = 'document'`.as('document'),
      dueAt.as('due_at'),
    ])
    .execute();
}

/**
 * Managers due a weekly digest: holders of permission 105 (manager dashboard) through their type or a grant, allowed
 * by their organisation, whose organisation sends reminders, who have not turned the digest off and have no digest
 * row for `week` yet. Super admins are left out: they run the platform, not a home.
 */
export async function managersDueDigest(db: Db, week: string, permission: number, prefKey: string) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .where('u.super_admin', '=', false)
    .where('e.events_reminder', '=', true)
    .where(prefOn(prefKey))
    .where(
      sql<SqlBool>`EXISTS (SELECT 1 FROM entity_permissions ep WHERE ep.entity_id = u.primary_entity_id
        AND ep.permission_id = ${permission}
        AND (ep.permission_id IN (SELECT permission_id FROM type_permissions WHERE type_id = u.type_id)
          OR ep.permission_id IN (SELECT permission_id FROM user_permissions WHERE user_id = u.id)))`,
    )
    .where(
      sql<SqlBool>`NOT EXISTS (SELECT 1 FROM notifications n WHERE n.kind = 'manager_digest'
        AND n.occasion = ${week} AND n.user_id = u.id)`,
    )
    .select(['u.id', 'u.email', 'u.name', 'u.primary_entity_id as entity_id'])
    .orderBy('u.id')
    .execute();
}

/** Inserts ledger rows; those already recorded (the unique key) are skipped. Returns what this statement inserted. */
export async function insertNotifications(db: DbOrTrx, rows: NewNotification[]) {
  if (rows.length === 0) return [];
  return db
    .insertInto('notifications')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['kind', 'subject_key', 'occasion', 'user_id', 'channel', 'delivery_key']).doNothing(),
    )
    .returning(['id', 'channel', 'entity_id', 'user_id'])
    .execute();
}

/** Quiet hours of the given entities. */
export async function quietHoursOf(db: DbOrTrx, entityIds: number[]) {
  if (entityIds.length === 0) return new Map<number, { start: string | null; end: string | null }>();
  const rows = await db
    .selectFrom('entities')
    .select(['id', 'quiet_hours_start', 'quiet_hours_end'])
    .where('id', 'in', entityIds)
    .execute();
  return new Map(rows.map((r) => [r.id, { start: r.quiet_hours_start, end: r.quiet_hours_end }]));
}

export async function holdNotifications(db: DbOrTrx, ids: number[], until: Date) {
  if (ids.length === 0) return;
  await db
    .updateTable('notifications')
    .set({ state: 'held', next_attempt_at: until })
    .where('id', 'in', ids)
    .execute();
}

/** An e-mail row with what its message needs (recipient address, the organisation's quiet hours). */
export async function findEmailNotification(db: DbOrTrx, id: number) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('users as u', 'u.id', 'n.user_id')
    .innerJoin('entities as e', 'e.id', 'n.entity_id')
    .select([
      'n.id',
      'n.kind',
      'n.subject_key',
      'n.occasion',
      'n.user_id',
      'n.entity_id',
      'n.course_id',
      'n.expires_at',
      'n.channel',
      'n.state',
      'n.title',
      'n.body',
      'n.link',
      'n.mail_id',
      'n.fallback',
      'u.email',
      'e.quiet_hours_start',
      'e.quiet_hours_end',
    ])
    .where('n.id', '=', id)
    .where('n.channel', '=', 'email')
    .executeTakeFirst();
}

export async function updateNotification(
  db: DbOrTrx,
  id: number,
  set: Partial<
    Pick<
      NotificationRow,
      'state' | 'attempts' | 'next_attempt_at' | 'last_error' | 'mail_id' | 'sent_at' | 'read_at' | 'fallback'
    >
  >,
) {
  await db.updateTable('notifications').set(set).where('id', '=', id).execute();
}

/** The caller's in-app notifications (not dismissed), newest first, with the total and the unread count. */
export async function inAppPage(
  db: Db,
  userId: number,
  o: { unreadOnly: boolean; limit: number; offset: number },
) {
  const base = db
    .selectFrom('notifications')
    .where('user_id', '=', userId)
    .where('channel', '=', 'in_app')
    .where('state', 'in', ['sent', 'read']);
  const filtered = o.unreadOnly ? base.where('state', '=', 'sent') : base;
  const [rows, counts] = await Promise.all([
    filtered
      .select(['id', 'kind', 'title', 'body', 'link', 'state', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(o.limit)
      .offset(o.offset)
      .execute(),
    base
      .select([
        sql<number>`count(*)::int`.as('total'),
        sql<number>`count(*) FILTER (WHERE state = 'sent')::int`.as('unread'),
      ])
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: o.unreadOnly ? counts.unread : counts.total, unread: counts.unread };
}

/** One in-app notification of its recipient (null for anyone else's: the caller gets 404). */
export async function findOwnInApp(db: DbOrTrx, id: number, userId: number) {
  return db
    .selectFrom('notifications')
    .select(['id', 'kind', 'title', 'body', 'link', 'state', 'created_at'])
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('channel', '=', 'in_app')
    .where('state', 'in', ['sent', 'read'])
    .executeTakeFirst();
}

/** Read / unread / dismiss in one statement, only while the row is still the caller's and not dismissed. */
export async function setInAppState(
  db: DbOrTrx,
  id: number,
  userId: number,
  state: 'sent' | 'read' | 'dismissed',
  now: Date,
) {
  return db
    .updateTable('notifications')
    .set({ state, read_at: state === 'sent' ? null : sql<Date>`coalesce(read_at, ${now})` })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where('channel', '=', 'in_app')
    .where('state', 'in', ['sent', 'read'])
    .returning(['id', 'kind', 'title', 'body', 'link', 'state', 'created_at'])
    .executeTakeFirst();
}

export async function markAllRead(db: DbOrTrx, userId: number, now: Date) {
  const rows = await db
    .updateTable('notifications')
    .set({ state: 'read', read_at: now })
    .where('user_id', '=', userId)
    .where('channel', '=', 'in_app')
    .where('state', '=', 'sent')
    .returning('id')
    .execute();
  return rows.length;
}

/** One user's ledger (every channel and state), newest first, with the course titles. */
export async function ledgerPage(db: Db, userId: number, o: { limit: number; offset: number }) {
  const base = db.selectFrom('notifications as n').where('n.user_id', '=', userId);
  const [rows, total] = await Promise.all([
    base
      .leftJoin('courses as c', 'c.id', 'n.course_id')
      .select([
        'n.id',
        'n.kind',
        'n.occasion',
        'n.title',
        'n.course_id',
        'c.title as course_title',
        'n.expires_at',
        'n.channel',
        'n.state',
        'n.attempts',
        'n.next_attempt_at',
        'n.last_error',
        'n.created_at',
        'n.sent_at',
        'n.read_at',
        'n.device_name',
        'n.fallback',
      ])
      .orderBy('n.created_at', 'desc')
      .orderBy('n.id', 'desc')
      .limit(o.limit)
      .offset(o.offset)
      .execute(),
    base.select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: total.n };
}

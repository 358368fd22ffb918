import { type SqlBool, sql } from 'kysely';
import type { Db } from '../db/connect';
import type { DbOrTrx } from '../jobs/queries';

/** SQL of help articles and "Contact support" (STYLE.md "SQL in one place"). Articles are global: no entity bound. */

const articleColumns = [
  'id',
  'title',
  'url_regex',
  'link_suffix',
  'body',
  'created_at',
  'updated_at',
] as const;

export type HelpArticleRow = Awaited<ReturnType<typeof listArticles>>[number];

/** Every article, by title: a platform holds tens of them, so the widget loads them all once. */
export async function listArticles(db: DbOrTrx) {
  return db
    .selectFrom('help_articles')
    .select(articleColumns)
    .orderBy(sql`lower(title)`)
    .orderBy('id')
    .execute();
}

export async function findArticle(db: DbOrTrx, id: number) {
  return db.selectFrom('help_articles').select(articleColumns).where('id', '=', id).executeTakeFirst();
}

export async function insertArticle(
  db: DbOrTrx,
  values: { title: string; url_regex: string; link_suffix: string | null; body: string },
) {
  const row = await db.insertInto('help_articles').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

/** Writes only the columns given (PATCH sends some fields); false when the article is gone. */
export async function updateArticle(
  db: DbOrTrx,
  id: number,
  values: Partial<{ title: string; url_regex: string; link_suffix: string | null; body: string }>,
  now: Date,
): Promise<boolean> {
  const result = await db
    .updateTable('help_articles')
    .set({ ...values, updated_at: now })
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function deleteArticle(db: DbOrTrx, id: number): Promise<boolean> {
  const result = await db.deleteFrom('help_articles').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Counts one contact request against the user's hourly budget and returns the count in the window, in one upsert
 * (the row lock serialises concurrent requests, so two at the limit cannot both pass). Shares auth_throttles and its
 * hourly sweep with the sign-in throttle. Run it in the request's transaction: a refused or failed request rolls
 * its count back.
 */
export async function countContact(db: DbOrTrx, key: string, now: Date, windowMs: number) {
  const windowStart = new Date(now.getTime() - windowMs);
  const { rows } = await sql<{ failures: number; window_started_at: Date }>`
    INSERT INTO auth_throttles AS t (key, failures, window_started_at, last_failure_at)
    VALUES (${key}, 1, ${now}, ${now})
    ON CONFLICT (key) DO UPDATE SET
      failures = CASE WHEN t.window_started_at <= ${windowStart} THEN 1 ELSE t.failures + 1 END,
      window_started_at = CASE WHEN t.window_started_at <= ${windowStart} THEN ${now} ELSE t.window_started_at END,
      last_failure_at = GREATEST(t.last_failure_at, ${now})
    RETURNING failures, window_started_at`.execute(db);
  const row = rows[0];
  return { count: Number(row?.failures ?? 1), windowStartedAt: new Date(row?.window_started_at ?? now) };
}

/** The signed-in user as support sees them: names of their role, type, organisation and level A organisation. */
export async function identityOf(db: DbOrTrx, userId: number) {
  return db
    .selectFrom('users as u')
    .innerJoin('entities as e', 'e.id', 'u.primary_entity_id')
    .leftJoin('entity_roles as r', 'r.id', 'u.role_id')
    .leftJoin('entity_types as t', 't.id', 'u.type_id')
    .select([
      'u.id',
      'u.uuid',
      'u.name',
      'u.email',
      'u.role_id',
      'r.name as role_name',
      'u.type_id',
      't.name as type_name',
      'e.id as entity_id',
      'e.name as entity_name',
      'e.slug as entity_slug',
    ])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export async function entityContact(db: DbOrTrx, entityId: number) {
  return db
    .selectFrom('entities')
    .select(['id', 'name', 'slug', 'email'])
    .where('id', '=', entityId)
    .executeTakeFirst();
}

/** Every super admin's address, by id (the platform's support team when an organisation names no support address). */
export async function superAdminAddresses(db: DbOrTrx): Promise<string[]> {
  const rows = await db
    .selectFrom('users')
    .select('email')
    .where('super_admin', '=', true)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.email);
}

/**
 * Who gets the in-app copy of a help request: the accounts whose address is the organisation's support address,
 * else (none, or no address) the super admins. Users, where supportRecipients gives addresses.
 */
export async function supportUserIds(db: DbOrTrx, supportAddress: string | null): Promise<number[]> {
  if (supportAddress) {
    const named = await db
      .selectFrom('users')
      .select('id')
      .where(sql<boolean>`lower(email) = lower(${supportAddress})`)
      .orderBy('id')
      .execute();
    if (named.length) return named.map((r) => r.id);
  }
  const admins = await db
    .selectFrom('users')
    .select('id')
    .where('super_admin', '=', true)
    .orderBy('id')
    .execute();
  return admins.map((r) => r.id);
}

export async function insertContact(
  db: DbOrTrx,
  values: {
    user_id: number;
    question: string;
    page: string | null;
    session: Record<string, unknown>;
    delivered_to: string;
    created_at: Date;
  },
) {
  const row = await db
    .insertInto('help_contacts')
    .values({ ...values, session: JSON.stringify(values.session) })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export async function findContact(db: DbOrTrx, id: number) {
  return db.selectFrom('help_contacts').selectAll().where('id', '=', id).executeTakeFirst();
}

/** A user by e-mail, case-insensitively (the unique index is on lower(email)). */
export async function userIdByEmail(db: Db, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<SqlBool>`lower(email) = lower(${email})`)
    .executeTakeFirst();
  return row?.id;
}

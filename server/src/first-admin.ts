import { PRODUCT_NAME } from '@cc/contracts';
import { sql, type Transaction } from 'kysely';
import { verifyPassword } from './auth/passwords';
import { issueUserToken } from './auth/user-tokens';
import type { Db } from './db/connect';
import { lockKeys } from './db/locks';
import type { Database } from './db/schema';
import { DEMO_LOGINS, DEMO_PASSWORD, insertCareRoles, insertEntity, insertStarterTypes } from './demo/seed';
import { uniqueEntitySlug } from './entities/slugs';
import { resetUrl } from './mail/templates';

/**
 * The first super admin of a production install (issue 29 §2): never a known password. The account is made without
 * one, and a one-time set-your-password link (a password-reset token, stored hashed: the /reset-password page sets
 * it) is printed on the console at start (main.ts) or by `npm run create-admin`. Until that password is set the
 * account cannot sign in, and each start prints a fresh link (the previous one stops working).
 */
export const SETUP_LINK_TTL_MINUTES = 24 * 60;
/** The first super admin's address when none is given: .invalid never receives mail (RFC 2606). */
export const SETUP_ADMIN_EMAIL = 'admin@setup.invalid';

interface FirstAdmin {
  email: string;
  name: string;
  organisation: string;
}

/** The super admin still waiting for their first password, if any (made by an earlier start or create-admin). */
async function pendingSuperAdmin(db: Db) {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('super_admin', '=', true)
    .where('password_hash', 'is', null)
    .orderBy('id')
    .executeTakeFirst();
}

const hasSuperAdmin = async (db: Db) =>
  Boolean(await db.selectFrom('users').select('id').where('super_admin', '=', true).executeTakeFirst());

/**
 * A super admin without a password in the first level A organisation (made when there is none), in one transaction.
 * create-admin's path; the start's when the database has no super admin at all.
 */
export async function createSuperAdmin(db: Db, who: FirstAdmin, now: Date): Promise<number> {
  return db.transaction().execute((trx) => createSuperAdminIn(trx, who, now));
}

async function createSuperAdminIn(trx: Transaction<Database>, who: FirstAdmin, now: Date): Promise<number> {
  {
    const existing = await trx
      .selectFrom('entities')
      .select('id')
      .where('level', '=', 'A')
      .where('parent_id', 'is', null)
      .orderBy('id')
      .executeTakeFirst();
    const entityId = existing?.id ?? (await newOrganisation(trx, who.organisation));
    const types = await trx
      .selectFrom('entity_types')
      .select(['id', 'name'])
      .where('entity_id', '=', entityId)
      .execute();
    const type = types.find((t) => t.name === 'Administrator') ?? types[0];
    if (!type) throw new Error(`The organisation ${entityId} has no user types to give the super admin.`);
    const user = await trx
      .insertInto('users')
      .values({
        name: who.name,
        email: who.email,
        password_hash: null,
        primary_entity_id: entityId,
        type_id: type.id,
        super_admin: true,
        start_date: now.toISOString().slice(0, 10),
        user_preferences: '{}',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return user.id;
  }
}

async function newOrganisation(trx: Db, name: string): Promise<number> {
  const entityId = await insertEntity(trx, { slug: await uniqueEntitySlug(trx, name), name, level: 'A' });
  await insertStarterTypes(trx, entityId);
  await insertCareRoles(trx, entityId);
  return entityId;
}

/** A fresh one-time link for a super admin without a password (earlier links of theirs stop working). */
export async function setupLink(db: Db, appUrl: string, user: { id: number; email: string }, now: Date) {
  const token = await issueUserToken(db, {
    userId: user.id,
    purpose: 'password_reset',
    email: user.email,
    ttlMinutes: SETUP_LINK_TTL_MINUTES,
    now,
  });
  return resetUrl(appUrl, token, user.email);
}

/**
 * At a production start: the set-your-password link of the first super admin when the install has none with a
 * password yet (creating the account on an empty database), else null.
 */
export async function firstAdminSetupLink(db: Db, appUrl: string, now: Date): Promise<string | null> {
  // Servers started together on an empty database (a cluster's first start) each found no super admin and each
  // made an organisation for one: all but the first crashed on its slug. Under one lock, one creates the account and
  // the others find it.
  const pending = await db.transaction().execute(async (trx) => {
    await lockKeys(trx, 'first-super-admin', [[0]]);
    const found = await pendingSuperAdmin(trx);
    if (found || (await hasSuperAdmin(trx))) return found ?? null;
    const who = { email: SETUP_ADMIN_EMAIL, name: 'Administrator', organisation: PRODUCT_NAME };
    return { id: await createSuperAdminIn(trx, who, now), email: who.email };
  });
  return pending ? setupLink(db, appUrl, pending, now) : null;
}

/**
 * The accounts whose password is still the published demo one (issue 29 §2), for the production start's refusal.
 * Argon2 hashes are salted, so each candidate is verified: the demo logins, and every hash shared by several
 * accounts (the demo seeds hash its password once for everyone; a person's own password never shares a hash).
 */
export async function accountsWithDemoPassword(db: Db): Promise<string[]> {
  const { rows } = await sql<{ password_hash: string; emails: string[] }>`
    SELECT password_hash, array_agg(email ORDER BY id) AS emails
    FROM users
    WHERE password_hash IS NOT NULL
    GROUP BY password_hash
    HAVING count(*) > 1 OR bool_or(lower(email) IN (${sql.join(DEMO_LOGINS.map((l) => l.email))}))`.execute(
    db,
  );
  const found: string[] = [];
  for (const row of rows)
    if (await verifyPassword(row.password_hash, DEMO_PASSWORD)) found.push(...row.emails);
  return found;
}

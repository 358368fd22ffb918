import type { Selectable } from 'kysely';
import type { Db } from '../db/connect';
import type { PushDevicesTable } from '../db/schema';
import type { DbOrTrx } from '../jobs/queries';

/**
 * SQL of push devices (STYLE.md "SQL in one place"). A token is one phone: registering is one upsert on the
 * unique token, so two registrations at once, or a phone passed to a colleague, leave exactly one row, the last
 * caller's. Every read and delete is the owner's: another user's id finds nothing (404).
 */
export type PushDeviceRow = Selectable<PushDevicesTable>;

export async function upsertDevice(
  db: DbOrTrx,
  d: {
    userId: number;
    token: string;
    platform: 'android' | 'ios';
    deviceName: string;
    accessTokenId: number | null;
    now: Date;
  },
): Promise<PushDeviceRow> {
  return db
    .insertInto('push_devices')
    .values({
      user_id: d.userId,
      token: d.token,
      platform: d.platform,
      device_name: d.deviceName,
      access_token_id: d.accessTokenId,
      created_at: d.now,
      updated_at: d.now,
    })
    .onConflict((oc) =>
      oc.column('token').doUpdateSet((eb) => ({
        user_id: eb.ref('excluded.user_id'),
        platform: eb.ref('excluded.platform'),
        device_name: eb.ref('excluded.device_name'),
        access_token_id: eb.ref('excluded.access_token_id'),
        updated_at: eb.ref('excluded.updated_at'),
      })),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function ownDevices(db: Db, userId: number): Promise<PushDeviceRow[]> {
  return db
    .selectFrom('push_devices')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

export async function deleteOwnDevice(db: DbOrTrx, id: number, userId: number): Promise<boolean> {
  const result = await db
    .deleteFrom('push_devices')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** The phones a push goes to, on the platforms this server can push to. */
export async function devicesToPush(db: DbOrTrx, userId: number, platforms: ('android' | 'ios')[]) {
  if (platforms.length === 0) return [];
  return db
    .selectFrom('push_devices')
    .select(['id', 'token', 'platform', 'device_name'])
    .where('user_id', '=', userId)
    .where('platform', 'in', platforms)
    .orderBy('id')
    .execute();
}

export async function hasDevice(db: DbOrTrx, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('push_devices')
    .select('id')
    .where('user_id', '=', userId)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A dead token's phone is removed, but only while it still has that token: had it registered again meanwhile
 * (the same row, a new token) the new registration stays.
 */
export async function deleteDeadDevice(db: DbOrTrx, id: number, token: string): Promise<void> {
  await db.deleteFrom('push_devices').where('id', '=', id).where('token', '=', token).execute();
}

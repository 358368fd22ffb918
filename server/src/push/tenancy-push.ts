import type { Db } from '../db/connect';

/**
 * Push devices' rows in server/test/tenancy.test.ts (issue 19): a phone of the victim, and the cases calling every
 * push route with it. A phone is its owner's alone: everyone else (outsider or insider, whatever their permissions)
 * gets 404 on it, never sees it in their list, and nothing changes.
 */
export interface PushFixture {
  id: number;
  deviceName: string;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
interface F {
  push: PushFixture;
}

export async function pushFixture(db: Db, o: { victimId: number; canary: string }): Promise<PushFixture> {
  const deviceName = `${o.canary} phone of the victim`;
  const row = await db
    .insertInto('push_devices')
    .values({
      user_id: o.victimId,
      token: `${o.canary}-push-token`,
      platform: 'android',
      device_name: deviceName,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, deviceName };
}

export function pushCases() {
  return [
    {
      method: 'DELETE' as Method,
      route: '/api/push-devices/:id',
      url: (f: F) => `/api/push-devices/${f.push.id}`,
      kind: 'own' as const,
    },
  ];
}

export function pushLists() {
  return [
    {
      method: 'GET' as const,
      route: '/api/push-devices',
      url: () => '/api/push-devices',
      secrets: (f: F) => [f.push.deviceName, `"id":${f.push.id},`],
      insider: 200 as const,
    },
  ];
}

export const PUSH_EXEMPT: Record<string, string> = {
  'POST /api/push-devices':
    "registers the caller's own phone; its token is the phone's secret, which only the phone itself knows",
};

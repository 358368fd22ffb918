import type { PushDevice, RegisterPushDeviceBody } from '@cc/contracts';
import { actorOf, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { deleteOwnDevice, ownDevices, type PushDeviceRow, upsertDevice } from './queries';

/**
 * The caller's phones for push notifications (issue 19). No permission beyond being signed in: a phone is its
 * owner's, and another user's id answers 404 like a missing one. A registration made with a mobile login's token
 * is tied to that token, so its logout (which deletes the token) removes the registration too.
 */
function present(row: PushDeviceRow, tokenId: number | undefined): PushDevice {
  return {
    id: row.id,
    platform: row.platform,
    device_name: row.device_name,
    current: tokenId !== undefined && row.access_token_id === tokenId,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
  };
}

export async function registerPushDevice(ctx: Ctx, body: RegisterPushDeviceBody): Promise<PushDevice> {
  const actor = actorOf(ctx);
  const deviceToken = actor.via === 'token' && actor.tokenKind !== 'personal' ? actor.tokenId : undefined;
  const row = await upsertDevice(ctx.db, {
    userId: actor.userId,
    token: body.token,
    platform: body.platform,
    deviceName: body.device_name,
    accessTokenId: deviceToken ?? null,
    now: ctx.clock(),
  });
  return present(row, actor.tokenId);
}

export async function listPushDevices(ctx: Ctx): Promise<PushDevice[]> {
  const actor = actorOf(ctx);
  return (await ownDevices(ctx.db, actor.userId)).map((r) => present(r, actor.tokenId));
}

export async function removePushDevice(ctx: Ctx, id: number): Promise<void> {
  const actor = actorOf(ctx);
  if (!(await deleteOwnDevice(ctx.db, id, actor.userId))) throw notFound();
}

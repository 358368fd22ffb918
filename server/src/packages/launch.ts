import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/connect';
import { serverSecret } from '../db/server-secrets';
import type { Ctx } from '../http/context';

/**
 * Signed package launch URLs (issue 11 finding 1). Package content is untrusted code: it runs in a sandboxed,
 * opaque origin (or the configured PACKAGE_ORIGIN), which sends none of the app's cookies. So its files are not
 * authorized by the session but by a capability in their path, /packages/{token}/{uuid}/…, handed out by the launch
 * data endpoints to a caller who may open that package:
 *
 *   token = <user id>.<expiry, unix seconds>.<HMAC-SHA256(key, "package-launch" uuid user expiry), base64url>
 *
 * Bound to the package (a token for one package never opens another's files: the uuid is inside the MAC) and to
 * the user it was issued to, valid for LAUNCH_TTL_SECONDS. It holds no session id or bearer token, and the same
 * URL works from any origin (web app, the hybrid shell), so it is origin-agnostic. The key is random, kept in
 * server_secrets (migration 016) so every process behind the database shares it, and never leaves the server.
 */
export const LAUNCH_TTL_SECONDS = 4 * 60 * 60;
const TOKEN = /^(\d{1,12})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/;

const launchKey = (db: Db) => serverSecret(db, 'package_launch_key');

const mac = (key: Buffer, uuid: string, userId: number, expires: number) =>
  createHmac('sha256', key).update(`package-launch\n${uuid}\n${userId}\n${expires}`).digest('base64url');

/** A launch token for `userId` to open package `uuid`, valid from now for LAUNCH_TTL_SECONDS. */
export async function signLaunch(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  uuid: string,
  userId: number,
): Promise<string> {
  const expires = Math.floor(ctx.clock().getTime() / 1000) + LAUNCH_TTL_SECONDS;
  return `${userId}.${expires}.${mac(await launchKey(ctx.db), uuid, userId, expires)}`;
}

/** True when `token` was issued by us for package `uuid` and has not expired. */
export async function verifyLaunch(
  ctx: Pick<Ctx, 'db' | 'clock'>,
  token: string,
  uuid: string,
): Promise<boolean> {
  const parts = TOKEN.exec(token);
  if (!parts) return false;
  const userId = Number(parts[1]);
  const expires = Number(parts[2]);
  if (expires * 1000 <= ctx.clock().getTime()) return false;
  const expected = Buffer.from(mac(await launchKey(ctx.db), uuid, userId, expires));
  const given = Buffer.from(parts[3] as string);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { QueryCreator } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/schema';
import type { Deps } from '../http/context';
import { cookieName, cookieOptions } from '../http/cookies';
import { hashToken, randomToken } from '../http/tokens';

/**
 * Known devices (issue 11 §5): a browser or app that has signed in successfully as a user before, or (issue 29 §8)
 * a browser that followed the unlock link mailed to the user while failed sign-ins held their new devices back
 * (POST /auth/unlock-sign-in). It holds a long-lived random secret, the server keeps only its hash per user. An
 * attacker hammering an account cannot hold back the owner on such a device (the account's throttle does not apply
 * to it; its own device throttle does).
 *
 * - Web: the httpOnly cookie `cc_device`, set at every successful login (one secret per browser, valid for the
 *   users who signed in with it).
 * - Mobile (POST /api/auth/login): the app keeps the `device_token` the login answered and sends it back with
 *   the next login (the cookie also works where the shell keeps cookies); the device_name is recorded with it.
 */
export const DEVICE_COOKIE = 'cc_device';
const DEVICE_COOKIE_DAYS = 365;

/** The device secret's public id (a throttle key, never the secret itself). */
export const deviceIdOf = (secret: string) => hashToken(secret).slice(0, 32);

/**
 * After a successful login: the device becomes known for the user. A secret is kept only when this server issued
 * it (it is known for someone); any other value is replaced, so nobody can plant a device secret they chose.
 */
export async function rememberDevice(
  db: Db,
  input: { secret: string | null; userId: number; name: string | null; now: Date },
): Promise<string> {
  const issued =
    input.secret &&
    (await db
      .selectFrom('known_devices')
      .select('user_id')
      .where('token_hash', '=', hashToken(input.secret))
      .executeTakeFirst());
  const secret = keptDeviceSecret(input.secret, Boolean(issued));
  await knownDeviceUpsert(db, { ...input, secret }).execute();
  return secret;
}

/** The secret the device holds from now on: its own when this server issued it, else a new one. */
export const keptDeviceSecret = (secret: string | null, issued: boolean): string =>
  issued && secret ? secret : randomToken(32);

/** The statement that makes the device known for the user (also part of a sign-in's one write, auth/queries.ts). */
export function knownDeviceUpsert(
  db: QueryCreator<Database>,
  input: { secret: string; userId: number; name: string | null; now: Date },
) {
  const name = input.name?.slice(0, 255) ?? null;
  return db
    .insertInto('known_devices')
    .values({
      token_hash: hashToken(input.secret),
      user_id: input.userId,
      name,
      created_at: input.now,
      last_login_at: input.now,
    })
    .onConflict((oc) =>
      oc.columns(['token_hash', 'user_id']).doUpdateSet({ last_login_at: input.now, name }),
    );
}

export function setDeviceCookie(reply: FastifyReply, deps: Deps, secret: string): void {
  const maxAge = DEVICE_COOKIE_DAYS * 24 * 60 * 60;
  reply.setCookie(
    cookieName(deps.config, DEVICE_COOKIE),
    secret,
    cookieOptions(deps.config, { httpOnly: true, maxAge }),
  );
}

/** The device secret the browser sent (its __Host- name on https: http/cookies.ts), or null. */
export const deviceCookieOf = (request: FastifyRequest, deps: Deps): string | null =>
  request.cookies[cookieName(deps.config, DEVICE_COOKIE)] ?? null;

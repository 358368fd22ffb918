import { Messages, type OwnSession, PASSWORD_CONFIRM_MINUTES, type PermissionCheckBody } from '@cc/contracts';
import type { z } from 'zod';
import { actorOf, type Ctx, can } from '../http/context';
import { forbidden, HttpError, invalidField, notFound, tooManyRequests } from '../http/errors';
import { hashToken } from '../http/tokens';
import { endUserSessions, findAccountById, flagPasswordChangeRequired } from './account-queries';
import { loadActor, presentAuthUser } from './actor';
import { deviceIdOf, keptDeviceSecret, rememberDevice } from './known-devices';
import { queueSignInUnlockMail } from './mail-jobs';
import { isCompromised, passwordPolicyOf } from './password-rules';
import { hashPassword, needsRehash, verifyPassword } from './passwords';
import {
  createAccessToken,
  createSession,
  deleteAccessToken,
  deleteOwnSessionByPublicId,
  deleteSession,
  findSignIn,
  listLiveSessions,
  listLiveTokens,
  markPasswordConfirmed,
  ownsCredential,
  passwordConfirmedAt,
  recordAuthEvent,
  recordSignIn,
  revokeOwnPersonalToken,
  type SignInFacts,
  sessionAbsoluteEnd,
  sessionLifetimeOf,
  tokenEnd,
} from './queries';
import { announceSignOut } from './sign-out';
import {
  ACCOUNT_RULE,
  ADDRESS_RULE,
  accountKey,
  addressKey,
  credentialKey,
  DEVICE_RULE,
  deviceKey,
  recordFailure,
  type ThrottleKey,
  type ThrottleRule,
  throttleWait,
  waitSeconds,
} from './throttle';
import { consumeUserToken } from './user-tokens';

/** What the client holds to prove it is a known device (auth/known-devices.ts), and its name for the list. */
export interface LoginDevice {
  secret: string | null;
  name: string | null;
}

/**
 * The throttle of a sign-in attempt (ASVS 2.2.1; issue 11 §5, issue 29 §8), per client address and per account
 * separately:
 * - a device that has signed in as this user before (or followed the user's mailed unlock link) has its own counter
 *   only, so an attacker hammering the account, or sharing the owner's address, never holds the owner back there;
 * - any other attempt is held back by its client address's failures (whatever account it tries: spraying), then by
 *   the account's failures from anywhere, which lock the account's NEW devices only. A new device refused for the
 *   account's sake is told of the link mailed to the account's address (queued at most every 15 minutes, the same
 *   work for an unknown address), which makes the browser it is opened in a known device.
 * A failure counts against the keys that were checked. The rows were read with the account (findSignIn).
 */
async function assertMaySignIn(
  ctx: Ctx,
  email: string,
  knownDevice: string | null,
  throttles: SignInFacts['throttles'],
): Promise<string[]> {
  const now = ctx.clock();
  const wait = (key: string, rule: ThrottleRule) => waitSeconds(throttles.get(key), rule, now);
  if (knownDevice) {
    const seconds = wait(knownDevice, DEVICE_RULE);
    if (seconds > 0) throw tooManyRequests(Messages.tooManyAttempts.replace(':seconds', String(seconds)));
    return [knownDevice];
  }
  const address = addressKey(ctx.ip);
  const account = accountKey(email);
  const addressWait = wait(address, ADDRESS_RULE);
  if (addressWait > 0)
    throw tooManyRequests(Messages.tooManyAttempts.replace(':seconds', String(addressWait)));
  const accountWait = wait(account, ACCOUNT_RULE);
  if (accountWait > 0) {
    await queueSignInUnlockMail(ctx, email);
    throw tooManyRequests(Messages.signInLocked.replace(':seconds', String(accountWait)));
  }
  return [account, address];
}

/** 429 with the seconds to wait, before any password is checked (so a refused guess tells nothing). */
async function assertNotThrottled(ctx: Ctx, keys: ThrottleKey[]): Promise<void> {
  const seconds = await throttleWait(ctx.db, keys, ctx.clock());
  if (seconds > 0) throw tooManyRequests(Messages.tooManyAttempts.replace(':seconds', String(seconds)));
}

/** Credentials that proved right: the user, the device secret to hand back, and the writes a sign-in makes. */
interface CheckedSignIn {
  userId: number;
  deviceSecret: string;
  /** The sign-in's writes (known device, the device's counter, audit, login time): one statement. */
  record(): Promise<void>;
}

/**
 * Checks credentials under the throttle; records the failed attempt. Returns the user id and the device secret to
 * hand back (the device is known from now on), and the writes of the sign-in, which the caller runs beside the
 * creation of its session or token (issue 12 §2, issue 36 §2: a login within 1 s under 200 clients, so it makes
 * as few round trips as it can: one read before the password, one write and the new credential after it).
 */
async function checkCredentials(
  ctx: Ctx,
  input: { email: string; password: string },
  via: 'web' | 'mobile',
  device: LoginDevice,
): Promise<CheckedSignIn> {
  const { email, password } = input;
  const deviceId = device.secret ? deviceIdOf(device.secret) : null;
  const facts = await findSignIn(ctx.db, {
    email,
    deviceSecret: device.secret,
    deviceId,
    throttleKeys: [accountKey(email), addressKey(ctx.ip)],
  });
  const { user } = facts;
  const knownDevice = user && facts.knownDevice && deviceId ? deviceKey(deviceId, user.id) : null;
  const keys = await assertMaySignIn(ctx, email, knownDevice, facts.throttles);
  const valid = await verifyPassword(user?.password_hash ?? null, password);
  if (!user || !valid) {
    await Promise.all([
      recordFailure(ctx.db, keys, ctx.clock()),
      recordAuthEvent(ctx.db, {
        event: 'failed_login',
        userId: user?.id ?? null,
        entityId: user?.primary_entity_id ?? null,
        email,
        ip: ctx.ip,
        userAgent: ctx.userAgent,
        via,
      }),
    ]);
    throw invalidField('email', Messages.invalidCredentials);
  }
  // spec 2 §3 compromised_passwords 'enforce_change': a breached password still signs in, but must be changed
  // first (the Auth user reports password_change_required and the password gate holds every other call). Before
  // the session or token is made, whose answer reports it.
  if (isCompromised(password) && (await passwordPolicyOf(ctx.db, user.primary_entity_id)).rejectCompromised)
    await flagPasswordChangeRequired(ctx.db, user.id);
  const deviceSecret = keptDeviceSecret(device.secret, facts.deviceIssued);
  const rehash = await rehashIfCostChanged(user.password_hash as string, password);
  return {
    userId: user.id,
    deviceSecret,
    // The account's own counter stays: it ends with its window or a password reset, so a success from one device
    // does not give an attacker elsewhere fresh free attempts. The device's counter is the device's business.
    record: () =>
      recordSignIn(ctx.db, {
        userId: user.id,
        device: { secret: deviceSecret, name: device.name ?? ctx.userAgent },
        clearKeys: knownDevice ? [knownDevice] : [],
        event: {
          event: 'login',
          userId: user.id,
          entityId: user.primary_entity_id,
          email,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          via,
        },
        now: ctx.clock(),
        rehash,
      }),
  };
}

/** A hash made at another cost than the chosen one (auth/passwords.ts), made again from the password just proved. */
async function rehashIfCostChanged(
  hash: string,
  password: string,
): Promise<{ from: string; to: string } | null> {
  return needsRehash(hash) ? { from: hash, to: await hashPassword(password) } : null;
}

/**
 * A wrong password given to confirm an account change (update e-mail or password, confirm-password) counts as a
 * failed sign-in of the account, so guessing with a borrowed session also locks the account's new devices. It is
 * held back by the session's or device token's own counter, as a known device is (issue 29 §8): the owner, signed
 * in, can still change their password or end other sessions while someone elsewhere hammers the account. Without a
 * session (never today) it is throttled as a sign-in from a new device.
 */
export async function confirmPassword(
  ctx: Ctx,
  user: { id: number; email: string; primary_entity_id: number; password_hash: string | null },
  password: string,
): Promise<boolean> {
  const own = ctx.actor?.userId === user.id ? ctx.actor : null;
  const credential = own?.sessionId
    ? credentialKey(`session:${hashToken(own.sessionId).slice(0, 32)}`)
    : own?.tokenId
      ? credentialKey(`token:${own.tokenId}`)
      : null;
  const keys = credential
    ? [{ key: credential, rule: DEVICE_RULE }]
    : [
        { key: accountKey(user.email), rule: ACCOUNT_RULE },
        { key: addressKey(ctx.ip), rule: ADDRESS_RULE },
      ];
  await assertNotThrottled(ctx, keys);
  if (await verifyPassword(user.password_hash, password)) return true;
  await recordFailure(ctx.db, [...keys.map((k) => k.key), accountKey(user.email)], ctx.clock());
  await recordAuthEvent(ctx.db, {
    event: 'failed_login',
    userId: user.id,
    entityId: user.primary_entity_id,
    email: user.email,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    via: ctx.actor?.via === 'token' ? 'mobile' : 'web',
  });
  return false;
}

/**
 * POST /auth/unlock-sign-in {token} (issue 29 §8): the link mailed while the account's failed sign-ins hold its new
 * devices back. Spends it and makes the browser that followed it a known device of the account (its device secret
 * is kept when this server issued it, else a new one is made), so the next sign-in there with the right password
 * is held back only by that device's own counter. It signs nobody in: the password is still needed. Returns the
 * device secret to set as the cookie.
 */
export async function unlockSignIn(
  ctx: Ctx,
  input: { token: string },
  deviceSecret: string | null,
): Promise<string> {
  const now = ctx.clock();
  return ctx.db.transaction().execute(async (trx) => {
    const spent = await consumeUserToken(trx, input.token, 'sign_in_unlock', now);
    const user = spent ? await findAccountById(trx, spent.user_id) : undefined;
    // A link sent to an address the account no longer has is dead, as a reset link is.
    if (!spent || !user || user.email.toLowerCase() !== spent.email)
      throw invalidField('token', Messages.invalidUnlockToken);
    return rememberDevice(trx, { secret: deviceSecret, userId: user.id, name: ctx.userAgent, now });
  });
}

/** A new web session for a user who just proved who they are (login, register): ASVS 3.2.1, a fresh session id. */
export async function startWebSession(
  ctx: Ctx,
  userId: number,
  replacedSessionId: string | null,
  how: { passwordGiven: boolean } = { passwordGiven: false },
) {
  // Signing in again over a live session replaces it (guests have no row since issue 11 §12).
  if (replacedSessionId) {
    await deleteSession(ctx.db, replacedSessionId);
    announceSignOut(ctx.bus, { sessionId: replacedSessionId });
  }
  const session = await createSession(ctx.db, {
    userId,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    lifetime: sessionLifetimeOf(ctx.config),
    now: ctx.clock(),
    passwordConfirmed: how.passwordGiven,
  });
  const actor = await loadActor(ctx.db, userId, { via: 'session', sessionId: session.record.id });
  if (!actor) throw notFound();
  return { session, user: await presentAuthUser(ctx.db, actor, ctx.clock()) };
}

/** Web login (spec 1 §4). A new session id is issued at login (ASVS 3.2.1); a session the browser had is replaced. */
export async function loginWithSession(
  ctx: Ctx,
  input: { email: string; password: string },
  guestSessionId: string | null,
  device: LoginDevice,
) {
  const signedIn = await checkCredentials(ctx, input, 'web', device);
  const [, started] = await Promise.all([
    signedIn.record(),
    startWebSession(ctx, signedIn.userId, guestSessionId, { passwordGiven: true }),
  ]);
  return { ...started, deviceSecret: signedIn.deviceSecret };
}

/**
 * Mobile login (spec 1 §7): a bearer token named after the device, valid TOKEN_LIFETIME_DAYS (issue 11 §10), and the
 * device_token the app keeps and sends with its next login (a known device, see auth/known-devices.ts).
 */
export async function loginWithToken(
  ctx: Ctx,
  input: { email: string; password: string; device_name: string; device_token?: string },
  cookieSecret: string | null,
) {
  const signedIn = await checkCredentials(ctx, input, 'mobile', {
    secret: input.device_token ?? cookieSecret,
    name: input.device_name,
  });
  const { userId, deviceSecret } = signedIn;
  const expiresAt = new Date(ctx.clock().getTime() + ctx.config.tokenLifetimeDays * 86_400_000);
  const [, token] = await Promise.all([
    signedIn.record(),
    createAccessToken(ctx.db, {
      userId,
      name: input.device_name,
      abilities: ['*'],
      expiresAt,
      passwordConfirmedAt: ctx.clock(),
    }),
  ]);
  const actor = await loadActor(ctx.db, userId, { via: 'token', tokenId: token.id, abilities: ['*'] });
  if (!actor) throw notFound();
  return {
    token: token.plainText,
    device_token: deviceSecret,
    user: await presentAuthUser(ctx.db, actor, ctx.clock()),
  };
}

/** Ends the caller's own session or token, closes its live sockets and records the logout. */
export async function logout(ctx: Ctx): Promise<void> {
  const actor = actorOf(ctx);
  if (actor.via === 'token' && actor.tokenId) {
    // A personal access token ends as revoked, still listed: it cannot take itself off the tokens page (§6).
    if (actor.tokenKind === 'personal')
      await revokeOwnPersonalToken(ctx.db, { id: actor.tokenId, userId: actor.userId, now: ctx.clock() });
    else await deleteAccessToken(ctx.db, { id: actor.tokenId, userId: actor.userId });
    announceSignOut(ctx.bus, { tokenId: actor.tokenId });
  } else if (actor.sessionId) {
    await deleteSession(ctx.db, actor.sessionId);
    announceSignOut(ctx.bus, { sessionId: actor.sessionId });
  }
  await recordAuthEvent(ctx.db, {
    event: 'logout',
    userId: actor.userId,
    entityId: actor.primaryEntity.id,
    email: actor.email,
    ip: ctx.ip,
    userAgent: ctx.userAgent,
    via: actor.via === 'token' ? 'mobile' : 'web',
  });
}

/**
 * Issue 29 §6: listing and ending sessions and devices is for the account's owner, proven recently: a browser session
 * or device token on which the password was given within PASSWORD_CONFIRM_MINUTES (sign-in, or POST
 * /auth/confirm-password), else 423 and the page asks for the password. A personal access token never qualifies,
 * whatever its abilities (403): it is an integration's key, no permission is about one's own sessions, and the tokens
 * page refuses it likewise, so a leaked token cannot sign its owner out everywhere or list where they are.
 */
async function assertRecentPassword(ctx: Ctx): Promise<void> {
  const actor = actorOf(ctx);
  if (actor.tokenKind === 'personal') throw forbidden(Messages.sessionsViaToken);
  const at = await passwordConfirmedAt(ctx.db, { sessionId: actor.sessionId, tokenId: actor.tokenId });
  if (!at || ctx.clock().getTime() - at.getTime() > PASSWORD_CONFIRM_MINUTES * 60_000)
    throw new HttpError(423, Messages.passwordConfirmationRequired);
}

/**
 * POST /auth/confirm-password {password}: the password given again on this session or device token, so its sessions
 * and devices can be managed for PASSWORD_CONFIRM_MINUTES. A wrong password counts against the sign-in throttle.
 */
export async function confirmOwnPassword(ctx: Ctx, input: { password: string }): Promise<void> {
  const actor = actorOf(ctx);
  if (actor.tokenKind === 'personal') throw forbidden(Messages.sessionsViaToken);
  const user = await findAccountById(ctx.db, actor.userId);
  if (!user) throw notFound();
  if (!(await confirmPassword(ctx, user, input.password)))
    throw invalidField('password', Messages.incorrectPassword);
  await markPasswordConfirmed(ctx.db, { sessionId: actor.sessionId, tokenId: actor.tokenId }, ctx.clock());
}

/**
 * GET /auth/sessions (issue 11 §10): the caller's live browser sessions and device tokens, newest activity first,
 * the one making the call marked, so they can end one (POST /auth/logout/{id}) or all the others.
 */
export async function listOwnSessions(ctx: Ctx): Promise<OwnSession[]> {
  const actor = actorOf(ctx);
  await assertRecentPassword(ctx);
  const now = ctx.clock();
  const lifetime = sessionLifetimeOf(ctx.config);
  const [sessions, tokens] = await Promise.all([
    listLiveSessions(ctx.db, actor.userId, now, lifetime),
    listLiveTokens(ctx.db, actor.userId, now, ctx.config.tokenLifetimeDays),
  ]);
  const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());
  const rows: OwnSession[] = [
    ...sessions.map((s) => ({
      id: s.public_id,
      kind: 'session' as const,
      name: s.user_agent ?? 'Browser',
      ip: s.ip,
      created_at: new Date(s.created_at).toISOString(),
      last_active_at: iso(s.last_activity_at),
      expires_at: iso(sessionAbsoluteEnd(s, lifetime)),
      current: s.id === actor.sessionId,
    })),
    ...tokens.map((t) => ({
      id: String(t.id),
      kind: 'token' as const,
      name: t.name,
      ip: null,
      created_at: new Date(t.created_at).toISOString(),
      last_active_at: iso(t.last_used_at),
      expires_at: iso(tokenEnd(t, ctx.config.tokenLifetimeDays)),
      current: t.id === actor.tokenId,
    })),
  ];
  // The current one first, then by last activity.
  const activity = (r: OwnSession) => (r.current ? Infinity : Date.parse(r.last_active_at ?? r.created_at));
  return rows.sort((a, b) => activity(b) - activity(a));
}

/**
 * POST /auth/logout/{id}: ends one of the caller's sessions (public uuid) or device tokens (numeric id) and closes
 * its sockets. Another user's id, or one that does not exist, is the same 404.
 */
export async function endOwnSession(ctx: Ctx, id: string): Promise<void> {
  const actor = actorOf(ctx);
  // Another user's id, or a missing one, is 404 first: the same answer whoever asks (the tenancy suite's rule).
  if (!(await ownsCredential(ctx.db, { id, userId: actor.userId }))) throw notFound();
  await assertRecentPassword(ctx);
  if (/^\d{1,10}$/.test(id)) {
    const tokenId = Number(id);
    if (!(await deleteAccessToken(ctx.db, { id: tokenId, userId: actor.userId }))) throw notFound();
    announceSignOut(ctx.bus, { tokenId });
    return;
  }
  const sessionId = /^[0-9a-f-]{36}$/i.test(id)
    ? await deleteOwnSessionByPublicId(ctx.db, { publicId: id, userId: actor.userId })
    : null;
  if (!sessionId) throw notFound();
  announceSignOut(ctx.bus, { sessionId });
}

/** POST /auth/logout-others: ends every other session and device token of the caller (and their sockets). */
export async function endOtherSessions(ctx: Ctx): Promise<void> {
  const actor = actorOf(ctx);
  await assertRecentPassword(ctx);
  const keep = { sessionId: actor.sessionId, tokenId: actor.tokenId };
  await endUserSessions(ctx.db, actor.userId, keep);
  announceSignOut(ctx.bus, { userId: actor.userId }, keep);
}

/** POST /auth/permission-check (spec 1 §3): all or any of the ids; super_admin passes. */
export function checkPermissions(ctx: Ctx, input: z.infer<typeof PermissionCheckBody>): boolean {
  return can(actorOf(ctx), input.permission_ids, input.mode);
}

export async function currentAuthUser(ctx: Ctx) {
  const actor = actorOf(ctx);
  return presentAuthUser(ctx.db, actor, ctx.clock());
}

import {
  SignupLinkMessages as M,
  type MySignup,
  type PublicSignupLink,
  SIGNUP_LINK_PATH,
  type SignUpBody,
} from '@cc/contracts';
import type { z } from 'zod';
import { findAccountByEmail } from '../auth/account-queries';
import { passwordErrors, passwordPolicyOf } from '../auth/password-rules';
import { hashPassword } from '../auth/passwords';
import { recordFailure, type ThrottleRule, throttleWait } from '../auth/throttle';
import { TOKEN_TTL_MINUTES } from '../auth/user-tokens';
import { londonDate } from '../bookings/session-service';
import { insertCertificate } from '../care-certificate/certificate-service';
import { actorOf, type Ctx } from '../http/context';
import { invalid, notFound, tooManyRequests } from '../http/errors';
import { hashToken, randomToken } from '../http/tokens';
import { queueMail } from '../mail/jobs';
import { confirmSignupMail, forgotPasswordUrl, loginUrl, registrationAttemptMail } from '../mail/templates';
import { emailTaken } from '../users/queries';
import { emitWebhookEvent } from '../webhooks/events';
import { findLink, findLinkByHash, insertPendingSignup, spendUseById, takePendingSignup } from './queries';
import { linkStatus } from './service';

/**
 * The new starter's side (issue 18; no login): open a link, sign up through it, and the banner's own status.
 *
 * Every link that does not work (unknown, expired, revoked, used up) gets the same 404 and message, so the page can
 * say one thing and a guessed token learns nothing. Sign-ups are throttled per client address and per link (and per
 * e-mail address, as registration is), counted before anything is checked.
 */

/** Sign-up attempts per client address an hour, and per link (a group of new starters shares one office address). */
export const SIGNUP_ADDRESS_RULE: ThrottleRule = { free: 20, maxDelaySeconds: 0, perHour: 20 };
export const SIGNUP_LINK_RULE: ThrottleRule = { free: 50, maxDelaySeconds: 0, perHour: 50 };
export const SIGNUP_EMAIL_RULE: ThrottleRule = { free: 3, maxDelaySeconds: 0, perHour: 3 };

const deadLink = () => notFound(M.invalidLink);

/** POST /signup-links/open: the home's name and slug (its branding is public by slug), the role, start date, rules. */
export async function openSignupLink(ctx: Ctx, token: string): Promise<PublicSignupLink> {
  const link = await findLinkByHash(ctx.db, hashToken(token));
  if (!link || linkStatus(link, ctx.clock()) !== 'active') throw deadLink();
  const policy = await passwordPolicyOf(ctx.db, link.entity_id);
  return {
    organisation: { name: link.entity_name, slug: link.entity_slug },
    role: link.role_name,
    start_date: String(link.start_date),
    password_requirements: policy.requirements,
  };
}

/** A sign-up waits this long for its address to be confirmed (the same as a verify link). */
export const SIGNUP_CONFIRM_TTL_MINUTES = TOKEN_TTL_MINUTES.email_verify;

/**
 * POST /signup-links/sign-up: the same answer (202, "check your e-mail") whether or not the address has an account,
 * so the page cannot be used to find accounts (issue 29 §5; it answered 201 and signed a new address in, 202 for a
 * taken one). Throttled per client address, per link and per e-mail address, counted before anything is checked.
 * - a new address: the sign-up waits in pending_signups and a confirm link is mailed to it; following it makes the
 *   account (confirmSignup). The link's use is spent then, not now.
 * - a taken address: nothing is kept; the owner is e-mailed how to sign in or reset (registration/service.ts's mail).
 * Both paths hash the password, look the address up, write one row or none, and send one mail.
 */
export async function signUpThroughLink(ctx: Ctx, body: z.output<typeof SignUpBody>): Promise<void> {
  const tokenHash = hashToken(body.token);
  const now = ctx.clock();
  const keys = [
    { key: `signup-address:${ctx.ip ?? 'unknown'}`, rule: SIGNUP_ADDRESS_RULE },
    { key: `signup-link:${tokenHash.slice(0, 32)}`, rule: SIGNUP_LINK_RULE },
    { key: `signup-email:${body.email}`, rule: SIGNUP_EMAIL_RULE },
  ];
  const seconds = await throttleWait(ctx.db, keys, now);
  if (seconds > 0) throw tooManyRequests(M.tooMany.replace(':seconds', String(seconds)));
  await recordFailure(
    ctx.db,
    keys.map((k) => k.key),
    now,
  );

  const link = await findLinkByHash(ctx.db, tokenHash);
  if (!link || linkStatus(link, now) !== 'active') throw deadLink();
  const policy = await passwordPolicyOf(ctx.db, link.entity_id);
  const failing = passwordErrors(body.password, policy, body);
  if (failing.length) throw invalid({ password: failing });

  const hash = await hashPassword(body.password); // slow on purpose, and on both paths
  if (await tellOwner(ctx, body.email)) return;
  const confirm = randomToken(32);
  await ctx.db.transaction().execute(async (trx) => {
    await insertPendingSignup(trx, {
      token_hash: hashToken(confirm),
      link_id: link.id,
      name: body.name,
      email: body.email,
      password_hash: hash,
      created_at: now,
      expires_at: new Date(now.getTime() + SIGNUP_CONFIRM_TTL_MINUTES * 60_000),
    });
    await queueMail(ctx, trx, confirmSignupMail(body, link.entity_name, signupConfirmUrl(ctx, confirm)));
  });
}

/** The confirm link of a sign-up: the sign-up page, which sends the token to POST /signup-links/confirm. */
const signupConfirmUrl = (ctx: Ctx, token: string) =>
  `${ctx.config.appUrl}${SIGNUP_LINK_PATH}?confirm=${encodeURIComponent(token)}`;

/**
 * POST /signup-links/confirm {token}: the link mailed to a new starter's address. In one transaction the pending
 * sign-up is taken (the link works once), a use of the sign-up link is spent (one conditional UPDATE: a link used
 * up, revoked or expired meanwhile refuses, and two confirmations at once cannot pass its limit), the account is made
 * in the home with the link's role, type and start date, its sign-up is recorded as pending approval, the
 * certificate is assigned when the link says "at sign-up", and webhooks hear `user.created`. The caller then starts
 * a web session: the link proved the address, and the person chose the password a moment before.
 * An address that got an account meanwhile: its owner is told, as at sign-up, and the link is refused.
 */
export async function confirmSignup(ctx: Ctx, token: string): Promise<{ userId: number }> {
  const now = ctx.clock();
  try {
    const userId = await ctx.db.transaction().execute(async (trx) => {
      const pending = await takePendingSignup(trx, hashToken(token), now);
      if (!pending) throw deadLink();
      const spent = await spendUseById(trx, pending.link_id, ctx.clock());
      if (!spent) throw deadLink(); // revoked, expired or used up since the sign-up
      const link = await findLink(trx, spent.id);
      if (!link) throw deadLink();
      if (await emailTaken(trx, pending.email)) throw taken();
      const user = await trx
        .insertInto('users')
        .values({
          name: pending.name,
          email: pending.email,
          password_hash: pending.password_hash,
          email_verified_at: now, // the link proved it
          primary_entity_id: spent.entity_id,
          role_id: spent.role_id,
          type_id: spent.type_id,
          start_date: String(spent.start_date),
          password_changed_at: now,
          user_preferences: '{}',
        })
        .returning(['id', 'uuid'])
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('signup_link_signups')
        .values({
          link_id: spent.id,
          user_id: user.id,
          name: pending.name,
          email: pending.email,
          created_at: now,
        })
        .execute();
      if (spent.care_certificate_version_id && spent.care_certificate_when === 'signup')
        await insertCertificate(trx, {
          userId: user.id,
          entityId: spent.entity_id,
          versionId: spent.care_certificate_version_id,
          startedOn: londonDate(now),
          assignedBy: spent.created_by,
        });
      await emitWebhookEvent(trx, {
        entityId: spent.entity_id,
        type: 'user.created',
        data: {
          id: user.id,
          uuid: user.uuid,
          name: pending.name,
          email: pending.email,
          organisation: { id: spent.entity_id, slug: link.entity_slug, name: link.entity_name },
          role: { id: spent.role_id, name: link.role_name },
          start_date: String(spent.start_date),
          source: 'signup_link',
        },
      });
      return user.id;
    });
    return { userId };
  } catch (error) {
    // The address got an account after the sign-up (another sign-up confirmed first): nothing is made.
    if ((error as { code?: string })?.code === '23505' || error === TAKEN) throw deadLink();
    throw error;
  }
}

const TAKEN = new Error('taken');
const taken = () => TAKEN;

/** When the address has an account: its owner is e-mailed how to sign in or reset (registration/service.ts's mail). */
async function tellOwner(ctx: Ctx, email: string): Promise<boolean> {
  const owner = await findAccountByEmail(ctx.db, email);
  if (!owner) return false;
  await queueMail(
    ctx,
    ctx.db,
    registrationAttemptMail(owner, loginUrl(ctx.config.appUrl), forgotPasswordUrl(ctx.config.appUrl)),
  );
  return true;
}

/** GET /signup-links/mine: the caller's own sign-up (the dashboard's "waiting for approval" banner), or null. */
export async function mySignup(ctx: Ctx): Promise<MySignup> {
  const actor = actorOf(ctx);
  const row = await ctx.db
    .selectFrom('signup_link_signups as s')
    .innerJoin('signup_links as l', 'l.id', 's.link_id')
    .innerJoin('entities as e', 'e.id', 'l.entity_id')
    .select(['s.status', 'e.name', 'l.start_date'])
    .where('s.user_id', '=', actor.userId)
    .executeTakeFirst();
  return row ? { status: row.status, organisation: row.name, start_date: String(row.start_date) } : null;
}

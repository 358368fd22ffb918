import { Messages, Perm, type UpdateEmailBody } from '@cc/contracts';
import type { z } from 'zod';
import { authorize, type Ctx } from '../http/context';
import { invalidField, notFound, tooManyRequests } from '../http/errors';
import { queueMail } from '../mail/jobs';
import type { MailMessage } from '../mail/mailer';
import {
  confirmEmailChangeMail,
  emailChangeAttemptMail,
  emailChangedMail,
  emailChangeRequestedMail,
  verifyEmailMail,
  verifyUrl,
} from '../mail/templates';
import { closeSocketsEverywhere } from '../realtime/socket-registry';
import {
  type AccountRow,
  applyPendingEmail,
  endUserSessions,
  findAccountByEmail,
  findAccountById,
  markEmailVerified,
  secondsSinceLastToken,
  setPendingEmail,
} from './account-queries';
import { completeRegistration } from './registration';
import { confirmPassword } from './service';
import { recordFailure, type ThrottleRule, throttleWait } from './throttle';
import { consumeUserToken, dropUserTokens, issueUserToken, TOKEN_TTL_MINUTES } from './user-tokens';

/** One verify e-mail per account per minute. */
export const VERIFY_MAIL_INTERVAL_SECONDS = 60;

async function issueVerifyLink(ctx: Ctx, db: Ctx['db'], user: { id: number; email: string }) {
  return issueUserToken(db, {
    userId: user.id,
    purpose: 'email_verify',
    email: user.email,
    ttlMinutes: TOKEN_TTL_MINUTES.email_verify,
    now: ctx.clock(),
  });
}

/**
 * POST /auth/verify-email {token} (spec 1 §2 /verify-email/{token}). Works signed in or not: the link is the proof.
 * Two kinds of link arrive here: a verify link for the current address (refused once the address has changed) and
 * the confirmation of an e-mail change (issue 11 §3), which makes the pending address the account's, ends the
 * user's other sessions and device tokens, and tells the old address. Returns the message to show.
 */
export async function verifyEmail(ctx: Ctx, input: { token: string }): Promise<string> {
  // A sign-up's confirm link comes to the same page (/verify-email/{token}).
  if (await completeRegistration(ctx, input.token)) return Messages.registrationCompleted;
  const changed = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const now = ctx.clock();
      const spent = await consumeUserToken(trx, input.token, 'email_verify', now);
      if (spent) {
        const user = await findAccountById(trx, spent.user_id);
        if (!user || user.email.toLowerCase() !== spent.email)
          throw invalidField('token', Messages.invalidVerifyToken);
        await markEmailVerified(trx, user.id, now);
        return null;
      }
      const change = await consumeUserToken(trx, input.token, 'email_change', now);
      const applied = change ? await applyPendingEmail(trx, change.user_id, change.email, now) : null;
      if (!change || !applied) throw invalidField('token', Messages.invalidVerifyToken);
      await endOtherSessions(ctx, trx, change.user_id);
      await queueMail(
        ctx,
        trx,
        emailChangedMail({ name: applied.name, email: applied.oldEmail }, change.email),
      );
      return { userId: change.user_id };
    })
    .catch((error) => {
      // Another account took the address while the change waited for its link.
      if ((error as { code?: string }).code === '23505') throw invalidField('token', Messages.emailTaken);
      throw error;
    });
  if (!changed) return Messages.emailVerified;
  closeSocketsEverywhere(ctx.bus, { userId: changed.userId }, ownCredentials(ctx, changed.userId));
  return Messages.emailChangeConfirmed;
}

/**
 * Ends the user's sessions and device tokens after an e-mail change (ASVS 3.3.3), sparing the caller's own session
 * or token when the caller is that user (the one confirming from this browser stays signed in).
 */
async function endOtherSessions(ctx: Ctx, db: Ctx['db'], userId: number): Promise<void> {
  await endUserSessions(db, userId, ownCredentials(ctx, userId));
}

/** The caller's own session and token when the caller is `userId`: what an account-wide sign-out spares. */
function ownCredentials(ctx: Ctx, userId: number) {
  const own = ctx.actor?.userId === userId ? ctx.actor : null;
  return { sessionId: own?.sessionId, tokenId: own?.tokenId };
}

/**
 * An e-mail change, for oneself (POST /auth/update-email) or by an administrator (PATCH /users/{id}): the new
 * address is recorded as pending and sent a confirmation link; the old address is told at once. The account keeps
 * its address, sessions and reset links until the link is followed (verifyEmail), so whoever typed the address
 * cannot take the account over with it. The caller has checked that the address is free.
 *
 * Writes in the caller's transaction and returns the mail, for the caller to queue in it (mail/jobs.ts queueMail).
 */
export async function recordEmailChange(
  ctx: Ctx,
  trx: Ctx['db'],
  user: { id: number; name: string; email: string },
  newEmail: string,
): Promise<MailMessage[]> {
  await setPendingEmail(trx, user.id, newEmail, ctx.clock());
  const token = await issueUserToken(trx, {
    userId: user.id,
    purpose: 'email_change',
    email: newEmail,
    ttlMinutes: TOKEN_TTL_MINUTES.email_verify,
    now: ctx.clock(),
  });
  return [
    confirmEmailChangeMail({ name: user.name, email: newEmail }, verifyUrl(ctx.config.appUrl, token)),
    emailChangeRequestedMail(user, newEmail),
  ];
}

/**
 * Seconds until another verify link may be sent to the user (0: now). Who may ask is the caller's business
 * (users/verification.ts, /auth/{uuid}/verification-send).
 */
export async function secondsUntilNextVerifyMail(ctx: Ctx, user: AccountRow): Promise<number> {
  const since = await secondsSinceLastToken(ctx.db, user.id, 'email_verify');
  if (since === null || since >= VERIFY_MAIL_INTERVAL_SECONDS) return 0;
  return Math.max(1, Math.ceil(VERIFY_MAIL_INTERVAL_SECONDS - since));
}

/** Mails the user a fresh verify link (earlier ones stop working); 429 within a minute of the last one. */
export async function mailVerifyLink(ctx: Ctx, user: AccountRow): Promise<void> {
  const wait = await secondsUntilNextVerifyMail(ctx, user);
  if (wait > 0) throw tooManyRequests(Messages.verificationThrottled.replace(':seconds', String(wait)));
  await ctx.db.transaction().execute(async (trx) => {
    const token = await issueVerifyLink(ctx, trx, user);
    await queueMail(ctx, trx, verifyEmailMail(user, verifyUrl(ctx.config.appUrl, token)));
  });
}

/** E-mail changes a user may ask for an hour, and a client address (issue 29 §5: each one mails two addresses). */
export const EMAIL_CHANGE_ACCOUNT_RULE: ThrottleRule = { free: 5, maxDelaySeconds: 0, perHour: 5 };
export const EMAIL_CHANGE_ADDRESS_RULE: ThrottleRule = { free: 20, maxDelaySeconds: 0, perHour: 20 };

/**
 * POST /auth/update-email {email, password} (spec 1 §7 Users): the caller's own address, confirmed with their
 * password (needs permission 127, self update), then confirmed from the new address (recordEmailChange).
 *
 * The answer is the same whether or not the new address has an account (issue 29 §5: it answered "taken", so any
 * signed-in user could test addresses): a taken address is recorded as pending as a free one is and the old address
 * is told as usual, but its owner is mailed that someone tried to use it instead of a confirmation link, and nothing
 * can make it this account's. Throttled per account and per client address, counted before anything is checked.
 */
export async function updateEmail(ctx: Ctx, input: z.infer<typeof UpdateEmailBody>): Promise<void> {
  const actor = authorize(ctx, [Perm.selfUpdate]);
  const now = ctx.clock();
  const keys = [
    { key: `email-change:${actor.userId}`, rule: EMAIL_CHANGE_ACCOUNT_RULE },
    { key: `email-change-address:${ctx.ip ?? 'unknown'}`, rule: EMAIL_CHANGE_ADDRESS_RULE },
  ];
  const seconds = await throttleWait(ctx.db, keys, now);
  if (seconds > 0) throw tooManyRequests(Messages.tooManyRequests.replace(':seconds', String(seconds)));
  await recordFailure(
    ctx.db,
    keys.map((k) => k.key),
    now,
  );

  const user = await findAccountById(ctx.db, actor.userId);
  if (!user) throw notFound();
  if (!(await confirmPassword(ctx, user, input.password)))
    throw invalidField('password', Messages.incorrectPassword);
  if (input.email === user.email.toLowerCase()) throw invalidField('email', Messages.emailUnchanged);

  const owner = await findAccountByEmail(ctx.db, input.email);
  await ctx.db.transaction().execute(async (trx) => {
    if (!owner) {
      await queueMail(ctx, trx, ...(await recordEmailChange(ctx, trx, user, input.email)));
      return;
    }
    await setPendingEmail(trx, user.id, input.email, ctx.clock());
    await dropUserTokens(trx, user.id, 'email_change'); // as a new request does: earlier links stop working
    await queueMail(ctx, trx, emailChangeAttemptMail(owner), emailChangeRequestedMail(user, input.email));
  });
}

import type { Ctx } from '../http/context';
import { enqueue, type JobContext, registerJob } from '../jobs/queue';
import { recordJobMail } from '../mail/jobs';
import { resetPasswordMail, resetUrl, signInLockedMail, unlockSignInUrl } from '../mail/templates';
import { findAccountByEmail, isDeactivatedAccount, secondsSinceLastToken } from './account-queries';
import { issueUserToken, TOKEN_TTL_MINUTES } from './user-tokens';

/**
 * Account mail whose request must not tell whether the address has an account (issue 29 §9, ASVS 2.5.2). The request
 * only records a job carrying the address, the same single write whoever it names, so its answer and its time are
 * the same for a registered address and an unknown one (33 ms against 7 ms when the request looked the account up
 * and sent the mail itself). The job does the rest: look the address up, and mail its owner if there is one.
 */
export const PASSWORD_RESET_MAIL_JOB = 'auth.password-reset-mail';

/** One reset e-mail per account per minute; further requests in the minute are answered the same way, silently. */
export const RESET_MAIL_INTERVAL_SECONDS = 60;

/**
 * Queues the reset mail of an address. At most one job per address a minute (its unique key): a flood of requests
 * for one address records one row, for a registered address and an unknown one alike.
 */
export async function queuePasswordResetMail(ctx: Ctx, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const now = ctx.clock();
  const slot = Math.floor(now.getTime() / (RESET_MAIL_INTERVAL_SECONDS * 1000));
  await enqueue(
    ctx.db,
    PASSWORD_RESET_MAIL_JOB,
    { email: address },
    { runAt: now, uniqueKey: `password-reset:${address}:${slot}`, maxAttempts: 3 },
  );
}

/**
 * The reset link of POST /auth/forgot-password: a single-use link valid for TOKEN_TTL_MINUTES.password_reset, mailed
 * when the address has an account that is not deactivated and had no link in the last minute. The link and its mail
 * commit with the job's "done" (ctx.finish), so a retried job never sends a second link.
 */
async function sendPasswordResetMail(ctx: JobContext, payload: { email: string }): Promise<void> {
  const user = await findAccountByEmail(ctx.db, payload.email);
  if (!user || (await isDeactivatedAccount(ctx.db, user.id))) return;
  const since = await secondsSinceLastToken(ctx.db, user.id, 'password_reset');
  if (since !== null && since < RESET_MAIL_INTERVAL_SECONDS) return;
  await ctx.db.transaction().execute(async (trx) => {
    const token = await issueUserToken(trx, {
      userId: user.id,
      purpose: 'password_reset',
      email: user.email,
      ttlMinutes: TOKEN_TTL_MINUTES.password_reset,
      now: ctx.now,
    });
    await recordJobMail(ctx, trx, [resetPasswordMail(user, resetUrl(ctx.config.appUrl, token, user.email))]);
    await ctx.finish(trx);
  });
}

/**
 * Issue 29 §8: the mail of an account whose new devices are held back by failed sign-ins, with a one-time link that
 * makes the browser it is opened in a known device of the account (POST /auth/unlock-sign-in). Asked for by a sign-in
 * the account's throttle refused, which must not tell whether the address has an account either: the same single
 * queued job for any address.
 */
export const SIGN_IN_UNLOCK_MAIL_JOB = 'auth.sign-in-unlock-mail';

/** One unlock mail per account per 15 minutes, however many refused sign-ins ask for it. */
export const UNLOCK_MAIL_INTERVAL_SECONDS = 15 * 60;

export async function queueSignInUnlockMail(ctx: Ctx, email: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const now = ctx.clock();
  const slot = Math.floor(now.getTime() / (UNLOCK_MAIL_INTERVAL_SECONDS * 1000));
  await enqueue(
    ctx.db,
    SIGN_IN_UNLOCK_MAIL_JOB,
    { email: address },
    { runAt: now, uniqueKey: `sign-in-unlock:${address}:${slot}`, maxAttempts: 3 },
  );
}

/**
 * Mails the unlock link when the address has an account that is not deactivated and had no such link in the last
 * 15 minutes. Earlier links stay valid (a new mail must not spoil the one the owner is opening); each works once,
 * for TOKEN_TTL_MINUTES.sign_in_unlock. The link and its mail commit with the job's "done".
 */
async function sendSignInUnlockMail(ctx: JobContext, payload: { email: string }): Promise<void> {
  const user = await findAccountByEmail(ctx.db, payload.email);
  if (!user || (await isDeactivatedAccount(ctx.db, user.id))) return;
  const since = await secondsSinceLastToken(ctx.db, user.id, 'sign_in_unlock');
  if (since !== null && since < UNLOCK_MAIL_INTERVAL_SECONDS) return;
  await ctx.db.transaction().execute(async (trx) => {
    const token = await issueUserToken(trx, {
      userId: user.id,
      purpose: 'sign_in_unlock',
      email: user.email,
      ttlMinutes: TOKEN_TTL_MINUTES.sign_in_unlock,
      now: ctx.now,
      keepEarlier: true,
    });
    await recordJobMail(ctx, trx, [signInLockedMail(user, unlockSignInUrl(ctx.config.appUrl, token))]);
    await ctx.finish(trx);
  });
}

export function registerAuthJobs(): void {
  registerJob(PASSWORD_RESET_MAIL_JOB, sendPasswordResetMail, {
    maxAttempts: 3,
    timeoutSeconds: 120,
    keepsCaches: true,
  });
  registerJob(SIGN_IN_UNLOCK_MAIL_JOB, sendSignInUnlockMail, {
    maxAttempts: 3,
    timeoutSeconds: 120,
    keepsCaches: true,
  });
}

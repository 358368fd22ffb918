import { Messages, Perm, type UpdateEmailBody } from '@cc/contracts';
import type { z } from 'zod';
import { assertEntityInScope } from '../entities/scope';
import { actorOf, authorize, type Ctx } from '../http/context';
import { invalidField, notFound, tooManyRequests } from '../http/errors';
import { sendAfterCommit } from '../mail/mailer';
import { emailChangedMail, verifyEmailMail, verifyUrl } from '../mail/templates';
import { emailTaken } from '../users/queries';
import {
  type AccountRow,
  changeEmail,
  findAccountById,
  findAccountByUuid,
  markEmailVerified,
  secondsSinceLastToken,
} from './account-queries';
import { completeRegistration } from './registration';
import { confirmPassword } from './service';
import { consumeUserToken, issueUserToken, TOKEN_TTL_MINUTES } from './user-tokens';

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
 * A link for an address the account no longer has is refused.
 */
export async function verifyEmail(ctx: Ctx, input: { token: string }): Promise<string> {
  // A sign-up's confirm link comes to the same page (/verify-email/{token}).
  if (await completeRegistration(ctx, input.token)) return Messages.registrationCompleted;
  await ctx.db.transaction().execute(async (trx) => {
    const spent = await consumeUserToken(trx, input.token, 'email_verify', ctx.clock());
    const user = spent ? await findAccountById(trx, spent.user_id) : undefined;
    if (!spent || !user || user.email.toLowerCase() !== spent.email)
      throw invalidField('token', Messages.invalidVerifyToken);
    await markEmailVerified(trx, user.id, ctx.clock());
  });
  return Messages.emailVerified;
}

/**
 * GET /auth/{uuid}/verification-send: a fresh verify link, to yourself (any signed-in user), or to a user in the
 * actor's scope with permission 18 (404 outside the scope, 403 without 18). Returns the message to show.
 */
export async function sendVerification(ctx: Ctx, uuid: string): Promise<string> {
  const actor = actorOf(ctx);
  const self = uuid === actor.uuid;
  const user = await findAccountByUuid(ctx.db, uuid);
  if (!user) throw notFound();
  if (!self) {
    await assertEntityInScope(ctx, user.primary_entity_id);
    authorize(ctx, [Perm.updateUser]);
  }
  if (user.email_verified_at) return Messages.alreadyVerified;
  await assertNotTooSoon(ctx, user);
  const token = await issueVerifyLink(ctx, ctx.db, user);
  await sendAfterCommit(ctx, verifyEmailMail(user, verifyUrl(ctx.config.appUrl, token)));
  return self ? Messages.verificationSent : Messages.verificationSentToUser;
}

async function assertNotTooSoon(ctx: Ctx, user: AccountRow): Promise<void> {
  const since = await secondsSinceLastToken(ctx.db, user.id, 'email_verify');
  if (since === null || since >= VERIFY_MAIL_INTERVAL_SECONDS) return;
  const wait = Math.max(1, Math.ceil(VERIFY_MAIL_INTERVAL_SECONDS - since));
  throw tooManyRequests(Messages.verificationThrottled.replace(':seconds', String(wait)));
}

/**
 * POST /auth/update-email {email, password} (spec 1 §7 Users): the caller's own address, confirmed with their
 * password (needs permission 127, self update). The new address is unverified until its link is followed; the old
 * address is told of the change.
 */
export async function updateEmail(ctx: Ctx, input: z.infer<typeof UpdateEmailBody>): Promise<void> {
  const actor = authorize(ctx, [Perm.selfUpdate]);
  const user = await findAccountById(ctx.db, actor.userId);
  if (!user) throw notFound();
  if (!(await confirmPassword(ctx, user, input.password)))
    throw invalidField('password', Messages.incorrectPassword);
  if (input.email === user.email.toLowerCase()) throw invalidField('email', Messages.emailUnchanged);
  if (await emailTaken(ctx.db, input.email, user.id)) throw invalidField('email', Messages.emailTaken);

  let token: string;
  try {
    token = await ctx.db.transaction().execute(async (trx) => {
      await changeEmail(trx, user.id, input.email, ctx.clock());
      return issueVerifyLink(ctx, trx, { id: user.id, email: input.email });
    });
  } catch (error) {
    // Another account took the address between the check and the write.
    if ((error as { code?: string }).code === '23505') throw invalidField('email', Messages.emailTaken);
    throw error;
  }
  await sendAfterCommit(
    ctx,
    verifyEmailMail({ name: user.name, email: input.email }, verifyUrl(ctx.config.appUrl, token)),
    emailChangedMail(user, input.email),
  );
}

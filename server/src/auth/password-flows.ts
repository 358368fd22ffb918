import { Messages, Perm, type ResetPasswordBody, type UpdatePasswordBody } from '@cc/contracts';
import type { z } from 'zod';
import { actorOf, type Ctx, can } from '../http/context';
import { forbidden, invalid, invalidField, notFound } from '../http/errors';
import { queueMail } from '../mail/jobs';
import { forgotPasswordUrl, passwordChangedMail } from '../mail/templates';
import {
  endUserSessions,
  findAccountById,
  isDeactivatedAccount,
  peekUserToken,
  setPassword,
} from './account-queries';
import { passwordChangeRequired } from './actor';
import { queuePasswordResetMail } from './mail-jobs';
import { passwordErrors, passwordPolicyOf } from './password-rules';
import { hashPassword, verifyPassword } from './passwords';
import { recordAuthEvent } from './queries';
import { confirmPassword } from './service';
import { announceSignOut } from './sign-out';
import { accountKey, clearFailures } from './throttle';
import { consumeUserToken } from './user-tokens';

/**
 * POST /auth/forgot-password: the same answer, after the same work, whether or not the address has an account (no
 * account enumeration, ASVS V2.5; issue 29 §9: not by the answer's time either). The request queues a job carrying
 * the address (auth/mail-jobs.ts); the job mails a reset link when the address has an account.
 */
export async function forgotPassword(ctx: Ctx, input: { email: string }): Promise<void> {
  await queuePasswordResetMail(ctx, input.email);
}

const badResetLink = () => invalidField('token', Messages.invalidResetToken);

/**
 * POST /auth/reset-password. The new password is checked against the user's entity policy before the link is
 * spent, so a rejected password leaves the link usable (spec 1 §4: every failing rule comes back at once). Then,
 * in one transaction: spend the link, set the password, mark the address verified (the link proved it) and end
 * every session and device token of the user (ASVS 3.3.3).
 */
export async function resetPassword(ctx: Ctx, input: z.infer<typeof ResetPasswordBody>): Promise<void> {
  const now = ctx.clock();
  const link = await peekUserToken(ctx.db, input.token, 'password_reset', now);
  if (!link || link.email !== input.email.toLowerCase()) throw badResetLink();
  const user = await findAccountById(ctx.db, link.user_id);
  // A link sent to an address the account no longer has is dead.
  if (!user || user.email.toLowerCase() !== link.email) throw badResetLink();
  if (await isDeactivatedAccount(ctx.db, user.id)) throw badResetLink();

  const policy = await passwordPolicyOf(ctx.db, user.primary_entity_id);
  const failing = passwordErrors(input.password, policy, user);
  if (failing.length) throw invalid({ password: failing });
  const hash = await hashPassword(input.password);

  await ctx.db.transaction().execute(async (trx) => {
    const spent = await consumeUserToken(trx, input.token, 'password_reset', ctx.clock());
    if (!spent || spent.user_id !== user.id) throw badResetLink(); // used meanwhile: the transaction rolls back
    await setPassword(trx, user.id, { hash, now, verifyEmail: true });
    await endUserSessions(trx, user.id);
    // The owner proved the mailbox: the account's failed sign-ins no longer hold anyone back (ASVS 2.2.1).
    await clearFailures(trx, [accountKey(user.email)]);
    await recordAuthEvent(trx, {
      event: 'password_reset',
      userId: user.id,
      entityId: user.primary_entity_id,
      email: user.email,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      via: 'web',
    });
    await queueMail(ctx, trx, passwordChangedMail(user, 'reset', forgotPasswordUrl(ctx.config.appUrl)));
  });
  announceSignOut(ctx.bus, { userId: user.id }); // after commit: the rows are gone, so a reopened socket is refused
}

/**
 * POST /auth/update-password (the /update-password page). Allowed with permission 44, or always while the password
 * must change (expired or flagged, spec 2 §3), so a user held by the password gate can always get out.
 * The caller's own session or token survives; every other one ends.
 */
export async function updatePassword(ctx: Ctx, input: z.infer<typeof UpdatePasswordBody>): Promise<void> {
  const actor = actorOf(ctx);
  const now = ctx.clock();
  const user = await findAccountById(ctx.db, actor.userId);
  if (!user) throw notFound();
  const policy = await passwordPolicyOf(ctx.db, user.primary_entity_id);
  const mustChange = passwordChangeRequired(
    {
      password_change_required: user.password_change_required,
      password_changed_at: user.password_changed_at,
      created_at: new Date(user.created_at),
    },
    policy.expireMonths,
    now,
  );
  if (!mustChange && !can(actor, [Perm.updatePassword])) throw forbidden();

  if (!(await confirmPassword(ctx, user, input.current_password)))
    throw invalidField('current_password', Messages.incorrectCurrentPassword);
  const failing = passwordErrors(input.password, policy, user);
  if (await verifyPassword(user.password_hash, input.password)) failing.push(Messages.passwordReused);
  if (failing.length) throw invalid({ password: failing });
  const hash = await hashPassword(input.password);

  await ctx.db.transaction().execute(async (trx) => {
    await setPassword(trx, user.id, { hash, now });
    await endUserSessions(trx, user.id, { sessionId: actor.sessionId, tokenId: actor.tokenId });
    await recordAuthEvent(trx, {
      event: 'password_changed',
      userId: user.id,
      entityId: user.primary_entity_id,
      email: user.email,
      ip: ctx.ip,
      userAgent: ctx.userAgent,
      via: actor.via === 'token' ? 'mobile' : 'web',
    });
    await queueMail(ctx, trx, passwordChangedMail(user, 'changed', forgotPasswordUrl(ctx.config.appUrl)));
  });
  announceSignOut(ctx.bus, { userId: user.id }, { sessionId: actor.sessionId, tokenId: actor.tokenId });
}

import { Messages, Perm, type VerificationStatus } from '@cc/contracts';
import { type AccountRow, findAccountByUuid } from '../auth/account-queries';
import { mailVerifyLink, secondsUntilNextVerifyMail } from '../auth/email-flows';
import { assertEntityInScope } from '../entities/scope';
import { actorOf, authorize, type Ctx } from '../http/context';
import { notFound } from '../http/errors';
import { effectivePermissionIds } from '../permissions/catalogue';
import { holdsAll, withinOwnReach } from '../permissions/privilege';

/**
 * /auth/{uuid}/verification-send (spec 1 §7's path): a verify link for oneself, or for a user one manages. Here, in
 * the users capability, because who may mail whom is a rule about users; auth (a lower layer) makes and mails the
 * link.
 *
 * Whom the caller may send a verify link, or read the verification state of (issue 29 §13): themselves, or a user in
 * their reach with permission 18 (403 without). The reach is the caller's scope and, for all but a super admin, their
 * own organisation's tree too, so acting as a parent organisation reaches none of its users; a user holding
 * permissions the caller does not hold is above them. Outside the reach or above the caller: the same 404 as a
 * missing user, so the answer tells nothing of who exists there.
 */
async function verificationTarget(ctx: Ctx, uuid: string): Promise<{ user: AccountRow; self: boolean }> {
  const actor = actorOf(ctx);
  const user = await findAccountByUuid(ctx.db, uuid);
  if (!user) throw notFound();
  if (user.id === actor.userId) return { user, self: true };
  await assertEntityInScope(ctx, user.primary_entity_id);
  if (!(await withinOwnReach(ctx.db, actor, user.primary_entity_id))) throw notFound();
  authorize(ctx, [Perm.updateUser]);
  if (!actor.superAdmin && (user.super_admin || !holdsAll(actor, await effectivePermissionIds(ctx.db, user))))
    throw notFound();
  return { user, self: false };
}

/**
 * GET /auth/{uuid}/verification-send: sends nothing (a GET must not make the server send mail, issue 29 §13);
 * answers whether the address is verified and how long until a new link may be sent. Same reach as the POST.
 */
export async function verificationStatus(ctx: Ctx, uuid: string): Promise<VerificationStatus> {
  const { user } = await verificationTarget(ctx, uuid);
  if (user.email_verified_at) return { email_verified: true, send_in_seconds: 0 };
  return { email_verified: false, send_in_seconds: await secondsUntilNextVerifyMail(ctx, user) };
}

/** POST /auth/{uuid}/verification-send: a fresh verify link (429 within a minute). Returns the message to show. */
export async function sendVerification(ctx: Ctx, uuid: string): Promise<string> {
  const { user, self } = await verificationTarget(ctx, uuid);
  if (user.email_verified_at) return Messages.alreadyVerified;
  await mailVerifyLink(ctx, user);
  return self ? Messages.verificationSent : Messages.verificationSentToUser;
}

import { Messages, Perm, type UpdateEmailBody } from '@cc/contracts';
import type { z } from 'zod';
import { authorize, type Ctx } from '../http/context';
import { invalidField, notFound, tooManyRequests } from '../http/errors';
import { queueMail } from '../mail/jobs';
import type { MailMessage } from '../mail/mailer';
import {
  approveEmailChangeMail,
  confirmEmailChangeMail,
  emailChangeAttemptMail,
  emailChangedMail,
  emailChangeRequestedMail,
  verifyEmailMail,
  verifyUrl,
} from '../mail/templates';
import {
  type AccountRow,
  applyPendingEmail,
  type EmailChangePurpose,
  emailChangeLinkOutstanding,
  endUserSessions,
  findAccountByEmail,
  findAccountById,
  lockPendingEmail,
  markEmailVerified,
  peekEmailChangeLink,
  secondsSinceLastToken,
  setPendingEmail,
} from './account-queries';
import { providedAtStart } from './provided-at-start';
import { confirmPassword } from './service';
import { announceSignOut } from './sign-out';
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

/** What following an e-mail change link did: applied the change, or recorded one side that waits for the other. */
type ChangeOutcome =
  | {
      kind: 'applied';
      userId: number;
      newEmail: string;
      oldEmail: string;
      name: string;
      side: EmailChangePurpose;
    }
  | { kind: 'waiting'; side: EmailChangePurpose };

/** The other link of a change: the new address's and, when someone else asked for it, the old address's. */
const OTHER_SIDE: Record<EmailChangePurpose, EmailChangePurpose> = {
  email_change: 'email_change_old',
  email_change_old: 'email_change',
};

/**
 * A sign-up's confirm link (registration/service.ts completeRegistration): false when the token is not a sign-up's.
 * Registration composes organisations and people above auth, so bootstrap.ts provides it at start (issue 34 §1).
 */
export type SignUpConfirmation = (ctx: Ctx, token: string) => Promise<boolean>;
const signUpConfirmation = providedAtStart<SignUpConfirmation>(
  'The sign-up confirmation (auth/email-flows.ts)',
);

export const provideSignUpConfirmation = (confirm: SignUpConfirmation): void =>
  signUpConfirmation.provide(confirm);

/**
 * POST /auth/verify-email {token} (spec 1 §2 /verify-email/{token}). Works signed in or not: the link is the proof.
 * Three kinds of link arrive here: a verify link for the current address (refused once the address has changed),
 * and the two links of an e-mail change (issue 11 §3, issue 29 §4): the one mailed to the new address, and, when
 * someone else asked for the change, the one mailed to the old address. The change is applied when every link it
 * was given has been followed, in either order: the pending address becomes the account's, the user's other sessions
 * and device tokens end, and the old address is told. Returns the message to show.
 */
export async function verifyEmail(ctx: Ctx, input: { token: string }): Promise<string> {
  // A sign-up's confirm link comes to the same page (/verify-email/{token}).
  if (await signUpConfirmation.get()(ctx, input.token)) return Messages.registrationCompleted;
  const outcome = await ctx.db
    .transaction()
    .execute(async (trx): Promise<ChangeOutcome | null> => {
      const now = ctx.clock();
      const spent = await consumeUserToken(trx, input.token, 'email_verify', now);
      if (spent) {
        const user = await findAccountById(trx, spent.user_id);
        if (!user || user.email.toLowerCase() !== spent.email)
          throw invalidField('token', Messages.invalidVerifyToken);
        await markEmailVerified(trx, user.id, now);
        return null;
      }
      const outcome = await followEmailChangeLink(ctx, trx, input.token, now);
      // The old address is told in the change's own transaction, through the job queue (issue 30 §4).
      if (outcome.kind === 'applied')
        await queueMail(
          ctx,
          trx,
          emailChangedMail({ name: outcome.name, email: outcome.oldEmail }, outcome.newEmail),
        );
      return outcome;
    })
    .catch((error) => {
      // Another account took the address while the change waited for its link.
      if ((error as { code?: string }).code === '23505') throw invalidField('token', Messages.emailTaken);
      throw error;
    });
  if (!outcome) return Messages.emailVerified;
  if (outcome.kind === 'waiting')
    return outcome.side === 'email_change'
      ? Messages.emailChangeAwaitsOldAddress
      : Messages.emailChangeAwaitsNewAddress;
  announceSignOut(ctx.bus, { userId: outcome.userId }, ownCredentials(ctx, outcome.userId));
  return outcome.side === 'email_change' ? Messages.emailChangeConfirmed : Messages.emailChangeApplied;
}

/**
 * One link of an e-mail change, spent under the account's row lock (lock first, as recordEmailChange does, so the
 * two cannot deadlock; and two links followed at once see each other one after the other). A link for an address
 * that is no longer the pending one is dead. While the other side's link is unfollowed the change waits.
 */
async function followEmailChangeLink(
  ctx: Ctx,
  trx: Ctx['db'],
  token: string,
  now: Date,
): Promise<ChangeOutcome> {
  const link = await peekEmailChangeLink(trx, token, now);
  if (!link) throw invalidField('token', Messages.invalidVerifyToken);
  const pending = await lockPendingEmail(trx, link.user_id);
  if (!pending || pending.toLowerCase() !== link.email)
    throw invalidField('token', Messages.invalidVerifyToken);
  const change = await consumeUserToken(trx, token, link.purpose, now);
  if (!change) throw invalidField('token', Messages.invalidVerifyToken); // spent meanwhile
  if (await emailChangeLinkOutstanding(trx, change.user_id, OTHER_SIDE[link.purpose], change.email))
    return { kind: 'waiting', side: link.purpose };
  const applied = await applyPendingEmail(trx, change.user_id, change.email, now);
  if (!applied) throw invalidField('token', Messages.invalidVerifyToken);
  await endOtherSessions(ctx, trx, change.user_id);
  return { kind: 'applied', ...applied, userId: change.user_id, newEmail: change.email, side: link.purpose };
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
 * address is recorded as pending and sent a confirmation link. The account keeps its address, sessions and reset
 * links until the change is confirmed (verifyEmail), so whoever typed the address cannot take the account over with
 * it.
 *
 * - Oneself (the password was given): the new address's link alone confirms it; the old address is told at once.
 * - Someone else (`confirmAtOldAddress`, issue 29 §4): the old address is sent a link too, and the change needs both.
 *   Whoever can edit the account cannot move it to a mailbox of theirs without its owner agreeing from the address
 *   the account has now.
 *
 * The caller has checked that the address is free. Writes in the caller's transaction (after locking the account's
 * row with setPendingEmail) and returns the mail, for the caller to queue in it (mail/jobs.ts queueMail).
 */
export async function recordEmailChange(
  ctx: Ctx,
  trx: Ctx['db'],
  user: { id: number; name: string; email: string },
  newEmail: string,
  how: { confirmAtOldAddress: boolean },
): Promise<MailMessage[]> {
  await setPendingEmail(trx, user.id, newEmail, ctx.clock());
  const link = (purpose: 'email_change' | 'email_change_old') =>
    issueUserToken(trx, {
      userId: user.id,
      purpose,
      email: newEmail,
      ttlMinutes: TOKEN_TTL_MINUTES.email_verify,
      now: ctx.clock(),
    });
  const confirm = confirmEmailChangeMail(
    { name: user.name, email: newEmail },
    verifyUrl(ctx.config.appUrl, await link('email_change')),
    { alsoOldAddress: how.confirmAtOldAddress },
  );
  if (!how.confirmAtOldAddress) {
    // An earlier change asked by someone else waited for the old address: this one replaces it.
    await dropUserTokens(trx, user.id, 'email_change_old');
    return [confirm, emailChangeRequestedMail(user, newEmail)];
  }
  return [
    confirm,
    approveEmailChangeMail(user, newEmail, verifyUrl(ctx.config.appUrl, await link('email_change_old'))),
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
      await queueMail(
        ctx,
        trx,
        ...(await recordEmailChange(ctx, trx, user, input.email, { confirmAtOldAddress: false })),
      );
      return;
    }
    await setPendingEmail(trx, user.id, input.email, ctx.clock());
    // As a new request does: earlier links (of either side) stop working.
    await dropUserTokens(trx, user.id, 'email_change');
    await dropUserTokens(trx, user.id, 'email_change_old');
    await queueMail(ctx, trx, emailChangeAttemptMail(owner), emailChangeRequestedMail(user, input.email));
  });
}

import { Messages, type RegisterBody, type RegisterParams } from '@cc/contracts';
import type { z } from 'zod';
import { findAccountByEmail } from '../auth/account-queries';
import { NEW_ORGANISATION_POLICY, passwordErrors } from '../auth/password-rules';
import { hashPassword } from '../auth/passwords';
import { recordFailure, type ThrottleRule, throttleWait } from '../auth/throttle';
import { TOKEN_TTL_MINUTES } from '../auth/user-tokens';
import type { Db } from '../db/connect';
import { insertCareRoles, insertEntity, insertStarterTypes } from '../demo/seed';
import { uniqueEntitySlug } from '../entities/slugs';
import type { Ctx } from '../http/context';
import { invalid, invalidField, tooManyRequests } from '../http/errors';
import { hashToken, randomToken } from '../http/tokens';
import { queueMail } from '../mail/jobs';
import {
  confirmRegistrationMail,
  forgotPasswordUrl,
  loginUrl,
  registrationAttemptMail,
  verifyUrl,
} from '../mail/templates';
import { emailTaken } from '../users/queries';

type Plan = z.infer<typeof RegisterParams>['plan'];

function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (e?.code !== '23505') return null;
  return e.constraint ?? e.message ?? '';
}

/** Sign-ups per client address an hour, and per e-mail address (each one mails that address). */
export const REGISTER_ADDRESS_RULE: ThrottleRule = { free: 10, maxDelaySeconds: 0, perHour: 10 };
export const REGISTER_EMAIL_RULE: ThrottleRule = { free: 3, maxDelaySeconds: 0, perHour: 3 };
/** A sign-up waits this long for its confirmation (the same as a verify link). */
export const REGISTRATION_TTL_MINUTES = TOKEN_TTL_MINUTES.email_verify;

/**
 * POST /register/{plan} (spec 1 §2, §7; issue 11 §8). The answer is the same whether or not the address already has
 * an account, so it cannot be used to find accounts:
 * - a new address: the sign-up is kept (pending_registrations) and a confirm link is mailed; following it creates
 *   the organisation (completeRegistration);
 * - a taken address: nothing is created; the owner is mailed that someone tried, with the ways to sign in.
 * Both paths hash the password and send one mail, so they take about as long. Throttled per client address and per
 * e-mail address (ASVS 2.2), before anything is checked.
 */
export async function register(ctx: Ctx, plan: Plan, input: z.infer<typeof RegisterBody>): Promise<void> {
  const keys = [
    { key: `register-address:${ctx.ip ?? 'unknown'}`, rule: REGISTER_ADDRESS_RULE },
    { key: `register-email:${input.email.toLowerCase()}`, rule: REGISTER_EMAIL_RULE },
  ];
  const now = ctx.clock();
  const seconds = await throttleWait(ctx.db, keys, now);
  if (seconds > 0) throw tooManyRequests(Messages.tooManyRegistrations.replace(':seconds', String(seconds)));
  const failing = passwordErrors(input.password, NEW_ORGANISATION_POLICY, input);
  if (failing.length) throw invalid({ password: failing });
  await recordFailure(
    ctx.db,
    keys.map((k) => k.key),
    now,
  );

  const hash = await hashPassword(input.password); // slow on purpose, and on both paths
  const owner = await findAccountByEmail(ctx.db, input.email);
  if (owner) {
    const mail = registrationAttemptMail(
      owner,
      loginUrl(ctx.config.appUrl),
      forgotPasswordUrl(ctx.config.appUrl),
    );
    await queueMail(ctx, ctx.db, mail);
    return;
  }
  const token = randomToken(32);
  await ctx.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('pending_registrations')
      .values({
        token_hash: hashToken(token),
        plan,
        name: input.name,
        organisation: input.organisation,
        email: input.email,
        password_hash: hash,
        created_at: now,
        expires_at: new Date(now.getTime() + REGISTRATION_TTL_MINUTES * 60_000),
      })
      .execute();
    await queueMail(
      ctx,
      trx,
      confirmRegistrationMail(input, input.organisation, verifyUrl(ctx.config.appUrl, token)),
    );
  });
}

/**
 * The confirm link of a sign-up (POST /auth/verify-email with its token): in one transaction the sign-up is spent
 * and the new level A organisation is created with the whole permission catalogue, the starter user types and care
 * job roles, and the person as its Administrator with a verified address. They then sign in. Returns false when the
 * token is not a sign-up's (the caller tries the other kinds of link); a spent, expired or since-taken one is refused.
 */
export async function completeRegistration(ctx: Ctx, token: string): Promise<boolean> {
  const pending = await ctx.db
    .selectFrom('pending_registrations')
    .select('id')
    .where('token_hash', '=', hashToken(token))
    .executeTakeFirst();
  if (!pending) return false;
  const refused = () => invalidField('token', Messages.invalidVerifyToken);

  for (let attempt = 0; ; attempt++) {
    try {
      await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.clock();
        const signUp = await trx
          .deleteFrom('pending_registrations')
          .where('id', '=', pending.id)
          .where('expires_at', '>', now)
          .returningAll()
          .executeTakeFirst();
        if (!signUp) throw refused(); // spent meanwhile, or expired
        if (await emailTaken(trx, signUp.email)) throw refused(); // another sign-up of the address came first
        await createOrganisation(trx, signUp, now);
      });
      return true;
    } catch (error) {
      const violated = uniqueViolation(error);
      if (violated?.includes('users_email')) throw refused();
      // Two organisations of the same name at the same moment: pick the next free slug.
      if (violated?.includes('entities_slug') && attempt < 3) continue;
      throw error;
    }
  }
}

async function createOrganisation(
  trx: Db,
  signUp: { plan: string; name: string; organisation: string; email: string; password_hash: string },
  now: Date,
): Promise<void> {
  const slug = await uniqueEntitySlug(trx, signUp.organisation);
  const entityId = await insertEntity(trx, {
    slug,
    name: signUp.organisation,
    level: 'A',
    email: signUp.email,
  });
  await trx
    .updateTable('entities')
    .set({ plan: signUp.plan as Plan, compromised_passwords: 'enforce_change' })
    .where('id', '=', entityId)
    .execute();
  const types = await insertStarterTypes(trx, entityId);
  const roles = await insertCareRoles(trx, entityId);
  await trx
    .insertInto('users')
    .values({
      name: signUp.name,
      email: signUp.email,
      password_hash: signUp.password_hash,
      email_verified_at: now, // the link proved it
      primary_entity_id: entityId,
      role_id: roles.Administrator ?? null,
      type_id: types.Administrator,
      start_date: now.toISOString().slice(0, 10),
      password_changed_at: now,
      user_preferences: '{}',
    })
    .execute();
}

/** Sign-ups never confirmed are dropped with the hourly sweep. */
export async function purgeExpiredRegistrations(db: Db, now: Date): Promise<void> {
  await db.deleteFrom('pending_registrations').where('expires_at', '<=', now).execute();
}

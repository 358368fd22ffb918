import { Messages, type RegisterBody, type RegisterParams } from '@cc/contracts';
import type { z } from 'zod';
import { insertCareRoles, insertEntity, insertStarterTypes } from '../db/demo/seed';
import { uniqueEntitySlug } from '../entities/slugs';
import type { Ctx } from '../http/context';
import { type FieldErrors, invalid, invalidField } from '../http/errors';
import { sendAfterCommit } from '../mail/mailer';
import { verifyEmailMail, verifyUrl } from '../mail/templates';
import { emailTaken } from '../users/queries';
import { NEW_ORGANISATION_POLICY, passwordErrors } from './password-rules';
import { hashPassword } from './passwords';
import { recordAuthEvent } from './queries';
import { startWebSession } from './service';
import { issueUserToken, TOKEN_TTL_MINUTES } from './user-tokens';

type Plan = z.infer<typeof RegisterParams>['plan'];

function uniqueViolation(error: unknown): string | null {
  const e = error as { code?: string; constraint?: string; message?: string } | null;
  if (e?.code !== '23505') return null;
  return e.constraint ?? e.message ?? '';
}

/**
 * POST /register/{plan} (spec 1 §2, §7): a new level A organisation with the whole permission catalogue, the
 * starter user types and care job roles, and the person registering as its Administrator; then they are signed in
 * with a fresh session and sent the verify link. One transaction; the mail goes after commit.
 */
export async function register(
  ctx: Ctx,
  plan: Plan,
  input: z.infer<typeof RegisterBody>,
  guestSessionId: string | null,
) {
  const errors: FieldErrors = {};
  if (await emailTaken(ctx.db, input.email)) errors.email = [Messages.emailTaken];
  // A new organisation starts with the default rules and the breached-password list on (spec 2 §3).
  const failing = passwordErrors(input.password, NEW_ORGANISATION_POLICY, input);
  if (failing.length) errors.password = failing;
  if (Object.keys(errors).length) throw invalid(errors);

  const hash = await hashPassword(input.password); // slow on purpose: outside the transaction

  for (let attempt = 0; ; attempt++) {
    try {
      const result = await ctx.db.transaction().execute(async (trx) => {
        const now = ctx.clock();
        const slug = await uniqueEntitySlug(trx, input.organisation);
        const entityId = await insertEntity(trx, {
          slug,
          name: input.organisation,
          level: 'A',
          email: input.email,
        });
        await trx
          .updateTable('entities')
          .set({ plan, compromised_passwords: 'enforce_change' })
          .where('id', '=', entityId)
          .execute();
        const types = await insertStarterTypes(trx, entityId);
        const roles = await insertCareRoles(trx, entityId);
        const user = await trx
          .insertInto('users')
          .values({
            name: input.name,
            email: input.email,
            password_hash: hash,
            email_verified_at: null,
            primary_entity_id: entityId,
            role_id: roles.Administrator ?? null,
            type_id: types.Administrator,
            start_date: now.toISOString().slice(0, 10),
            password_changed_at: now,
            user_preferences: '{}',
          })
          .returning(['id'])
          .executeTakeFirstOrThrow();
        const token = await issueUserToken(trx, {
          userId: user.id,
          purpose: 'email_verify',
          email: input.email,
          ttlMinutes: TOKEN_TTL_MINUTES.email_verify,
          now,
        });
        const signedIn = await startWebSession({ ...ctx, db: trx }, user.id, guestSessionId);
        // Registering signs the person in: recorded as a web login, like POST /login.
        await recordAuthEvent(trx, {
          event: 'login',
          userId: user.id,
          entityId,
          email: input.email,
          ip: ctx.ip,
          userAgent: ctx.userAgent,
          via: 'web',
        });
        return { ...signedIn, token };
      });
      await sendAfterCommit(ctx, verifyEmailMail(input, verifyUrl(ctx.config.appUrl, result.token)));
      return { session: result.session, user: result.user };
    } catch (error) {
      const violated = uniqueViolation(error);
      if (violated?.includes('users_email')) throw invalidField('email', Messages.emailTaken);
      // Two organisations of the same name at the same moment: pick the next free slug.
      if (violated?.includes('entities_slug') && attempt < 3) continue;
      throw error;
    }
  }
}

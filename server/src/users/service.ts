import {
  type CreateUserBody,
  type EffectiveUserPermission,
  Messages,
  PERMISSIONS,
  Perm,
  type UpdateUserBody,
  type UserListQuery,
} from '@cc/contracts';
import type { z } from 'zod';
import { recordEmailChange } from '../auth/email-flows';
import { passwordErrorsFor } from '../auth/password-rules';
import { hashPassword } from '../auth/passwords';
import { recordFailure, type ThrottleRule, throttleWait } from '../auth/throttle';
import { issueUserToken, TOKEN_TTL_MINUTES } from '../auth/user-tokens';
import { markScoresStale } from '../compliance/scores-cache';
import type { Db } from '../db/connect';
import type { UserUpdate } from '../db/schema';
import { assertEntityInScope, entityScope, listEntityIds } from '../entities/scope';
import { aEntityIdOf, ancestorIds, subtreeIds } from '../entities/tree';
import { type Actor, actorOf, authorize, type Ctx, can } from '../http/context';
import {
  type FieldErrors,
  forbidden,
  invalid,
  invalidField,
  notFound,
  tooManyRequests,
} from '../http/errors';
import { queueMail } from '../mail/jobs';
import { resetUrl, welcomeMail } from '../mail/templates';
import {
  assertMayManageUser,
  assertWithinOwnReach,
  ORGANISATION_ABOVE_YOU,
  TYPE_ABOVE_YOU,
  wouldHoldOnlyWhatActorHolds,
} from '../permissions/privilege';
import { roleBelongsTo } from '../roles/queries';
import { emitWebhookEvent } from '../webhooks/events';
import { userCreatedData, userUpdatedData } from '../webhooks/payloads';
import { auditUser, userSnapshot } from './audit';
import { presentUser, presentUserDetail } from './presenters';
import {
  emailTaken,
  findEntityRefs,
  findUserByRef,
  insertUser,
  listUsers as listUserRows,
  permissionSources,
  type UserDetailRow,
  updateUserRow,
} from './queries';

export const EMAIL_TAKEN = 'The email has already been taken.';
export const INVALID_ROLE = 'The selected role is not available to this user’s organisation.';
export const INVALID_TYPE = 'The selected type is not available to this user’s organisation.';
export const NO_SELF_ESCALATION = 'You cannot change your own job role, user type or organisation.';
export const OWN_EMAIL_ELSEWHERE = 'Change your own e-mail address with the update e-mail form.';

/**
 * GET /users (spec 1 §7): permission 21, then bounded by scope: the base entity only, or its subtree when deep;
 * `entity_id` narrows to one entity in scope (404 outside). The search matches e-mail addresses only for callers who
 * may see them (permission 23), so the filter cannot be used to probe addresses.
 */
export async function listUsers(ctx: Ctx, query: z.infer<typeof UserListQuery>) {
  const actor = authorize(ctx, [Perm.searchUsers]);
  let entityIds: number[] | null;
  if (query.entity_id !== undefined) {
    await assertEntityInScope(ctx, query.entity_id);
    entityIds = query.deep ? await subtreeIds(ctx.db, query.entity_id) : [query.entity_id];
  } else {
    entityIds = await listEntityIds(ctx, query.deep);
  }
  const { rows, total } = await listUserRows(
    ctx.db,
    {
      entityIds,
      search: query.search || undefined,
      searchEmail: can(actor, [Perm.contactDetails]),
      isTrainer: query.is_trainer,
      typeId: query.type_id,
      roleId: query.role_id,
    },
    { page: query.page, perPage: query.per_page },
  );
  return { data: rows.map((r) => presentUser(r, actor)), total };
}

/** The user by id or uuid: themselves always; anyone else only when their primary entity is in scope (404 otherwise). */
async function loadUser(
  ctx: Ctx,
  ref: string,
): Promise<{ actor: Actor; user: UserDetailRow; self: boolean }> {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (!user) throw notFound();
  const self = user.id === actor.userId;
  if (!self) await assertEntityInScope(ctx, user.primary_entity_id);
  return { actor, user, self };
}

async function detail(ctx: Ctx, actor: Actor, user: UserDetailRow) {
  const aId = await aEntityIdOf(ctx.db, user.primary_entity_id);
  const [a] = await findEntityRefs(ctx.db, [aId]);
  return presentUserDetail(
    user,
    a ?? { id: user.primary_entity_id, slug: user.entity_slug, name: user.entity_name },
    actor,
  );
}

/** GET /users/{id}: self, or 21 with the user in scope. */
export async function getUser(ctx: Ctx, ref: string) {
  const { actor, user, self } = await loadUser(ctx, ref);
  if (!self) authorize(ctx, [Perm.searchUsers]);
  return detail(ctx, actor, user);
}

/** Field errors for a role and type that must belong to the entity or one of its ancestors. */
async function roleTypeErrors(
  db: Db,
  entityId: number,
  check: { roleId?: number | null; typeId?: number | null },
): Promise<FieldErrors> {
  const errors: FieldErrors = {};
  if (!check.roleId && !check.typeId) return errors;
  const owners = await ancestorIds(db, entityId);
  if (check.roleId && !(await roleBelongsTo(db, 'role', check.roleId, owners)))
    errors.role_id = [INVALID_ROLE];
  if (check.typeId && !(await roleBelongsTo(db, 'type', check.typeId, owners)))
    errors.type_id = [INVALID_TYPE];
  return errors;
}

function uniqueEmail(error: unknown): never {
  if ((error as { code?: string })?.code === '23505') throw invalidField('email', EMAIL_TAKEN);
  throw error;
}

/**
 * A set-your-password link: a new link (earlier ones stop working) and its mail, in the caller's transaction. The mail
 * is delivered by the job queue once that commits (mail/jobs.ts), never inside the request.
 */
async function queueWelcome(
  ctx: Ctx,
  trx: Db,
  user: { id: number; name: string; email: string; entityName: string },
): Promise<void> {
  const token = await welcomeToken(trx, ctx, user);
  await queueMail(
    ctx,
    trx,
    welcomeMail(
      { name: user.name, email: user.email },
      user.entityName,
      resetUrl(ctx.config.appUrl, token, user.email),
    ),
  );
}

const welcomeToken = (db: Db, ctx: Ctx, user: { id: number; email: string }) =>
  issueUserToken(db, {
    userId: user.id,
    purpose: 'password_reset',
    email: user.email,
    ttlMinutes: TOKEN_TTL_MINUTES.welcome,
    now: ctx.clock(),
  });

/**
 * Taken-address answers per caller an hour (issue 11 §8). Addresses are unique across organisations, so "taken" can
 * mean "someone elsewhere has an account": each such answer spends the caller's budget, and a caller who has spent it
 * is refused every POST /users (whatever the address) until the hour ends, so the refusal itself tells nothing.
 * Ten leave room for an administrator sorting out their own duplicates.
 */
export const TAKEN_ADDRESS_RULE: ThrottleRule = { free: 10, maxDelaySeconds: 0, perHour: 10 };
const takenAddressKey = (actor: Actor) => `user-email-taken:${actor.userId}`;

async function assertTakenAddressBudget(ctx: Ctx, actor: Actor): Promise<void> {
  const seconds = await throttleWait(
    ctx.db,
    [{ key: takenAddressKey(actor), rule: TAKEN_ADDRESS_RULE }],
    ctx.clock(),
  );
  if (seconds > 0) throw tooManyRequests(Messages.tooManyRequests.replace(':seconds', String(seconds)));
}

/**
 * POST /users: permission 3; the primary entity defaults to the base entity and must be in scope (404); a trainer
 * needs 99 (403). Without a password the user gets a welcome e-mail to choose one (unless send_welcome_email is false).
 * A taken address gets the same answer wherever its account is (never which organisation), within a budget per caller.
 */
export async function createUser(ctx: Ctx, body: z.infer<typeof CreateUserBody>) {
  const actor = authorize(ctx, [Perm.addUser]);
  if (!actor.superAdmin) await assertTakenAddressBudget(ctx, actor);
  const entityId = body.primary_entity_id ?? (await entityScope(ctx)).baseId;
  await assertEntityInScope(ctx, entityId);
  if (body.is_trainer && !can(actor, [Perm.createTrainer])) throw forbidden();

  const errors: FieldErrors = await roleTypeErrors(ctx.db, entityId, {
    roleId: body.role_id,
    typeId: body.type_id,
  });
  // Finding 2 of issue 11: the new login may hold nothing its creator does not hold.
  if (
    !errors.type_id &&
    body.type_id &&
    !(await wouldHoldOnlyWhatActorHolds(ctx.db, actor, { userId: null, typeId: body.type_id, entityId }))
  )
    errors.type_id = [TYPE_ABOVE_YOU];
  if (await emailTaken(ctx.db, body.email)) errors.email = [EMAIL_TAKEN];
  if (await emailTaken(ctx.db, body.email)) {
    errors.email = [EMAIL_TAKEN];
    if (!actor.superAdmin) await recordFailure(ctx.db, [takenAddressKey(actor)], ctx.clock());
  }
  if (body.password) {
    const failing = await passwordErrorsFor(ctx.db, entityId, body.password, {
      email: body.email,
      name: body.name,
    });
    if (failing.length) errors.password = failing;
  }
  if (Object.keys(errors).length) throw invalid(errors);

  const now = ctx.clock();
  const passwordHash = body.password ? await hashPassword(body.password) : null;
  const sendWelcome = body.send_welcome_email ?? !body.password;
  const id = await ctx.db
    .transaction()
    .execute(async (trx) => {
      const user = await insertUser(trx, {
        name: body.name,
        email: body.email,
        password_hash: passwordHash,
        password_changed_at: passwordHash ? now : null,
        primary_entity_id: entityId,
        role_id: body.role_id ?? null,
        type_id: body.type_id ?? null,
        is_trainer: body.is_trainer ?? false,
        start_date: body.start_date ?? null,
        user_preferences: '{}',
      });
      if (sendWelcome) {
        const entity = await trx
          .selectFrom('entities')
          .select('name')
          .where('id', '=', entityId)
          .executeTakeFirstOrThrow();
        await queueWelcome(ctx, trx, {
          id: user.id,
          name: body.name,
          email: body.email,
          entityName: entity.name,
        });
      }
      const data = userCreatedData(
        user,
        { entityId, roleId: body.role_id, typeId: body.type_id, startDate: body.start_date },
        now,
      );
      await emitWebhookEvent(trx, { entityId, type: 'user.created', data }, now);
      await auditUser(trx, ctx, 'created', null, await userSnapshot(trx, user.id));
      return user.id;
    })
    .catch(uniqueEmail);
  // A person with a role is required to do its courses: cached scores no longer hold.
  if (body.role_id) markScoresStale();

  const user = await findUserByRef(ctx.db, String(id));
  if (!user) throw notFound();
  return detail(ctx, actor, user);
}

/**
 * PATCH /users/{id}. Only fields whose value changes are checked, so a form may send the whole user back.
 * - Someone else: in scope (404), then 18 for name, e-mail, start date, organisation and preferences; 4 for the role,
 *   5 for the type, 99 for the trainer flag. A super admin is changed only by a super admin, and anyone only by
 *   someone who holds every permission they hold (403, permissions/privilege.ts); a new type or organisation may
 *   give them nothing the caller does not hold (422). The e-mail address only of a user in the caller's own
 *   organisation or below (403, issue 29 §4), and a new address waits for the links mailed to it and to the old one.
 * - Oneself: name and preferences with 127 (self update) or 18; start date with 18; the trainer flag with 99. One's own
 *   role, type and organisation never (no self-escalation), and one's own e-mail only through POST auth/update-email,
 *   which asks for the password. A super admin may do all of it.
 */
export async function updateUser(ctx: Ctx, ref: string, body: z.infer<typeof UpdateUserBody>) {
  const { actor, user, self } = await loadUser(ctx, ref);
  const changed = {
    name: body.name !== undefined && body.name !== user.name,
    email: body.email !== undefined && body.email.toLowerCase() !== user.email.toLowerCase(),
    start_date: body.start_date !== undefined && body.start_date !== user.start_date,
    primary_entity_id:
      body.primary_entity_id !== undefined && body.primary_entity_id !== user.primary_entity_id,
    user_preferences: body.user_preferences !== undefined,
    role_id: body.role_id !== undefined && body.role_id !== user.role_id,
    type_id: body.type_id !== undefined && body.type_id !== user.type_id,
    is_trainer: body.is_trainer !== undefined && body.is_trainer !== user.is_trainer,
  };
  const need = (ok: boolean, message?: string) => {
    if (!ok) throw forbidden(message);
  };

  if (self && !actor.superAdmin) {
    need(!changed.role_id && !changed.type_id && !changed.primary_entity_id, NO_SELF_ESCALATION);
    need(!changed.email, OWN_EMAIL_ELSEWHERE);
    if (changed.name || changed.user_preferences) need(can(actor, [Perm.selfUpdate, Perm.updateUser], 'any'));
    if (changed.start_date) need(can(actor, [Perm.updateUser]));
  } else if (!self) {
    need(
      can(actor, [Perm.updateUser, Perm.updateRoleOnUser, Perm.updateTypeOnUser, Perm.createTrainer], 'any'),
    );
    need(!user.super_admin || actor.superAdmin);
    const general =
      changed.name ||
      changed.email ||
      changed.start_date ||
      changed.primary_entity_id ||
      changed.user_preferences;
    if (general) need(can(actor, [Perm.updateUser]));
  }
  if (changed.role_id) need(can(actor, [Perm.updateRoleOnUser]));
  if (changed.type_id) need(can(actor, [Perm.updateTypeOnUser]));
  if (changed.is_trainer) need(can(actor, [Perm.createTrainer]));

  const entityId = changed.primary_entity_id ? (body.primary_entity_id as number) : user.primary_entity_id;
  if (changed.primary_entity_id) await assertEntityInScope(ctx, entityId);
  // Finding 3 of issue 11: an account that holds more than the caller is not theirs to change.
  await assertMayManageUser(ctx, actor, user);
  // Issue 29 §4: nor is the sign-in of one above the caller's own organisation, even holding the same (acting as the
  // group, a home manager reached a group-level user of their own type): the address is where reset links go.
  if (changed.email) await assertWithinOwnReach(ctx, actor, user);

  // The role and type must fit the (new) organisation; re-checked when either or the organisation changes.
  const roleId = changed.role_id ? body.role_id : user.role_id;
  const typeId = changed.type_id ? body.type_id : user.type_id;
  const errors = await roleTypeErrors(ctx.db, entityId, {
    roleId: changed.role_id || changed.primary_entity_id ? roleId : null,
    typeId: changed.type_id || changed.primary_entity_id ? typeId : null,
  });
  // Finding 2 of issue 11: a new type or organisation may give the user nothing the caller does not hold.
  if (
    (changed.type_id || changed.primary_entity_id) &&
    !errors.type_id &&
    !errors.role_id &&
    !(await wouldHoldOnlyWhatActorHolds(ctx.db, actor, { userId: user.id, typeId: typeId ?? null, entityId }))
  ) {
    if (changed.type_id) errors.type_id = [TYPE_ABOVE_YOU];
    else errors.primary_entity_id = [ORGANISATION_ABOVE_YOU];
  }
  if (changed.email && body.email && (await emailTaken(ctx.db, body.email, user.id)))
    errors.email = [EMAIL_TAKEN];
  if (Object.keys(errors).length) throw invalid(errors);

  const values: UserUpdate = {};
  if (changed.name) values.name = body.name;
  if (changed.start_date) values.start_date = body.start_date ?? null;
  if (changed.primary_entity_id) values.primary_entity_id = entityId;
  if (changed.role_id) values.role_id = body.role_id ?? null;
  if (changed.type_id) values.type_id = body.type_id ?? null;
  if (changed.is_trainer) values.is_trainer = body.is_trainer;
  // Preferences merge shallowly, so one screen's setting does not wipe another's.
  if (changed.user_preferences)
    values.user_preferences = JSON.stringify({ ...(user.user_preferences ?? {}), ...body.user_preferences });
  await ctx.db.transaction().execute(async (trx) => {
    if (Object.keys(values).length) {
      values.updated_at = ctx.clock();
      const before = await userSnapshot(trx, user.id);
      await updateUserRow(trx, user.id, values);
      await auditUser(trx, ctx, 'updated', before, await userSnapshot(trx, user.id));
      await emitWebhookEvent(trx, { entityId, type: 'user.updated', data: userUpdatedData(user, values) });
    }
    // The address itself changes only when the links mailed to the new address AND the old one are both followed
    // (issue 29 §4: the user, not only whoever typed the new address, agrees), so no administrator alone can move
    // an account's reset links to a mailbox of their choosing. The mails go out through the job queue (issue 30 §4).
    if (changed.email && body.email)
      await queueMail(
        ctx,
        trx,
        ...(await recordEmailChange(ctx, trx, user, body.email, { confirmAtOldAddress: true })),
      );
  });
  // A new role or organisation changes the person's required courses, a new start date whether they are a new
  // starter: cached scores no longer hold (compliance/scores-cache.ts).
  if (changed.role_id || changed.primary_entity_id || changed.start_date) markScoresStale();
  const fresh = await findUserByRef(ctx.db, String(user.id));
  if (!fresh) throw notFound();
  return detail(ctx, actor, fresh);
}

/**
 * POST /users/{id}/send-welcome-email: 3 or 18, user in scope, holding nothing the caller lacks and within the
 * caller's own organisation (issue 29 §4: it is a set-your-password link). A new link replaces any earlier one.
 */
export async function sendWelcomeEmail(ctx: Ctx, ref: string): Promise<void> {
  const { user } = await loadUser(ctx, ref);
  const actor = authorize(ctx, [Perm.addUser, Perm.updateUser], 'any');
  await assertMayManageUser(ctx, actor, user);
  await assertWithinOwnReach(ctx, actor, user);
  await ctx.db.transaction().execute((trx) =>
    queueWelcome(ctx, trx, {
      id: user.id,
      name: user.name,
      email: user.email,
      entityName: user.entity_name,
    }),
  );
}

/**
 * GET /users/{id}/permissions: self, or 45 with the user in scope. Effective = (type ∪ per-user grants) ∩ what the
 * user's entity allows (ARCHITECTURE "Effective permissions"), each with its sources; a super admin holds them all.
 */
export async function userPermissions(ctx: Ctx, ref: string): Promise<EffectiveUserPermission[]> {
  const { user, self } = await loadUser(ctx, ref);
  if (!self) authorize(ctx, [Perm.seeUserPermissions]);
  const catalogue = (id: number) => PERMISSIONS.find((p) => p.id === id);
  if (user.super_admin) return PERMISSIONS.map((p) => ({ ...p, sources: ['super_admin' as const] }));
  const rows = await permissionSources(ctx.db, user);
  return rows.flatMap((r) => {
    const p = catalogue(r.permission_id);
    if (!p) return [];
    const sources: EffectiveUserPermission['sources'] = [];
    if (r.from_type) sources.push('type');
    if (r.from_user) sources.push('user');
    return [{ id: p.id, name: p.name, description: p.description, category: p.category, sources }];
  });
}

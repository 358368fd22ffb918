import {
  type CreatedSignupLink,
  type CreateSignupLinkBody,
  SignupLinkMessages as M,
  SignupLinkPerm as P,
  SIGNUP_LINK_PATH,
  type SignupLinkListQuery,
  type SignupLinkView,
  type SignupListQuery,
  type SignupView,
} from '@cc/contracts';
import type { z } from 'zod';
import { endUserSessions } from '../auth/account-queries';
import { londonDate } from '../bookings/session-service';
import { insertCertificate } from '../care-certificate/certificate-service';
import { assertEntityInScope, entityScope, inScope, listEntityIds } from '../entities/scope';
import { ancestorIds } from '../entities/tree';
import { type Actor, authorize, type Ctx, can } from '../http/context';
import { conflict, type FieldErrors, forbidden, invalid, notFound } from '../http/errors';
import { hashToken, randomToken } from '../http/tokens';
import { TYPE_ABOVE_YOU, wouldHoldOnlyWhatActorHolds } from '../permissions/privilege';
import { closeSocketsEverywhere } from '../realtime/socket-registry';
import { roleBelongsTo } from '../roles/queries';
import {
  decideSignup,
  findLink,
  findSignup,
  hasLearningRecords,
  type LinkRow,
  listLinks,
  listSignups,
  revokeLink,
  type SignupRow,
} from './queries';

/**
 * The manager's side of sign-up links (issue 18; contracts signup-links.ts): create, list, revoke; list, approve and
 * reject sign-ups. Every operation needs permission 3 (add user: a link adds users) and the link's home in the
 * caller's scope (entities/scope.ts; out of scope is the same 404 as a missing id).
 */

const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

export const INVALID_ROLE = 'Choose a job role of this home or its group.';
export const INVALID_TYPE = 'Choose a user type of this home or its group.';
export const INVALID_VERSION = 'Choose a version of the certificate.';

export function linkStatus(r: Pick<LinkRow, 'revoked_at' | 'expires_at' | 'max_uses' | 'uses'>, now: Date) {
  if (r.revoked_at) return 'revoked' as const;
  if (new Date(r.expires_at).getTime() <= now.getTime()) return 'expired' as const;
  if (r.max_uses !== null && r.uses >= r.max_uses) return 'used_up' as const;
  return 'active' as const;
}

export function presentLink(r: LinkRow, now: Date): SignupLinkView {
  return {
    id: r.id,
    uuid: r.uuid,
    entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
    role: { id: r.role_id, name: r.role_name },
    type: r.type_id !== null && r.type_name !== null ? { id: r.type_id, name: r.type_name } : null,
    start_date: String(r.start_date),
    expires_at: iso(r.expires_at) as string,
    max_uses: r.max_uses,
    uses: r.uses,
    pending: Number(r.pending),
    status: linkStatus(r, now),
    care_certificate:
      r.version_id !== null && r.care_certificate_when
        ? {
            version: { id: r.version_id, code: r.version_code ?? '', title: r.version_title ?? '' },
            when: r.care_certificate_when,
          }
        : null,
    created_by:
      r.creator_id !== null
        ? { id: r.creator_id, uuid: r.creator_uuid ?? '', name: r.creator_name ?? '' }
        : null,
    created_at: iso(r.created_at) as string,
    revoked_at: iso(r.revoked_at),
  };
}

export function presentSignup(r: SignupRow): SignupView {
  return {
    id: r.id,
    uuid: r.uuid,
    name: r.name,
    email: r.email,
    status: r.status,
    account: r.account,
    user: r.user_id !== null ? { id: r.user_id, uuid: r.user_uuid ?? '' } : null,
    link: {
      id: r.link_id,
      entity: { id: r.entity_id, slug: r.entity_slug, name: r.entity_name },
      role: { id: r.role_id, name: r.role_name },
      start_date: String(r.start_date),
    },
    created_at: iso(r.created_at) as string,
    decided_at: iso(r.decided_at),
    decided_by:
      r.decider_id !== null
        ? { id: r.decider_id, uuid: r.decider_uuid ?? '', name: r.decider_name ?? '' }
        : null,
  };
}

const manager = (ctx: Ctx): Actor => authorize(ctx, [P.manage]);

/** The link when its home is in scope (404 otherwise, as for a missing one). */
async function linkInScope(ctx: Ctx, id: number): Promise<LinkRow> {
  const link = await findLink(ctx.db, id);
  if (!link || !inScope(await entityScope(ctx), link.entity_id)) throw notFound();
  return link;
}

/**
 * POST /signup-links. The home must be a level B organisation in scope (404 outside; 422 for a group); the role and
 * type belong to the home or its group; the type may give the new starter nothing the manager does not hold
 * (permissions/privilege.ts, the users capability's rule); a certificate needs 86 as well.
 */
export async function createSignupLink(
  ctx: Ctx,
  body: z.output<typeof CreateSignupLinkBody>,
): Promise<CreatedSignupLink> {
  const actor = manager(ctx);
  await assertEntityInScope(ctx, body.entity_id);
  if (body.care_certificate_version_id && !can(actor, [P.assignCertificate])) throw forbidden();
  const home = await ctx.db
    .selectFrom('entities')
    .select(['id', 'level'])
    .where('id', '=', body.entity_id)
    .executeTakeFirst();
  if (!home) throw notFound();

  const errors: FieldErrors = {};
  if (home.level !== 'B') errors.entity_id = [M.notHome];
  const owners = await ancestorIds(ctx.db, home.id);
  if (!(await roleBelongsTo(ctx.db, 'role', body.role_id, owners))) errors.role_id = [INVALID_ROLE];
  if (body.type_id) {
    if (!(await roleBelongsTo(ctx.db, 'type', body.type_id, owners))) errors.type_id = [INVALID_TYPE];
    else if (
      !(await wouldHoldOnlyWhatActorHolds(ctx.db, actor, {
        userId: null,
        typeId: body.type_id,
        entityId: home.id,
      }))
    )
      errors.type_id = [TYPE_ABOVE_YOU];
  }
  if (body.care_certificate_version_id) {
    const version = await ctx.db
      .selectFrom('care_certificate_versions')
      .select('id')
      .where('id', '=', body.care_certificate_version_id)
      .executeTakeFirst();
    if (!version) errors.care_certificate_version_id = [INVALID_VERSION];
  }
  if (Object.keys(errors).length) throw invalid(errors);

  const now = ctx.clock();
  const token = randomToken(32);
  const row = await ctx.db
    .insertInto('signup_links')
    .values({
      entity_id: home.id,
      role_id: body.role_id,
      type_id: body.type_id ?? null,
      start_date: body.start_date,
      care_certificate_version_id: body.care_certificate_version_id ?? null,
      care_certificate_when: body.care_certificate_version_id ? (body.care_certificate_when ?? null) : null,
      token_hash: hashToken(token),
      expires_at: new Date(now.getTime() + body.expires_in_days * 86_400_000),
      max_uses: body.max_uses ?? null,
      created_by: actor.userId,
      created_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const link = await findLink(ctx.db, row.id);
  if (!link) throw notFound();
  const url = `${ctx.config.appUrl}${SIGNUP_LINK_PATH}?token=${encodeURIComponent(token)}`;
  return { ...presentLink(link, now), url, token };
}

/** GET /signup-links: links of homes in scope (the base and its subtree), newest first; `entity_id` narrows. */
export async function listSignupLinks(ctx: Ctx, q: z.output<typeof SignupLinkListQuery>) {
  manager(ctx);
  let entityIds: number[] | null;
  if (q.entity_id !== undefined) {
    await assertEntityInScope(ctx, q.entity_id);
    entityIds = [q.entity_id];
  } else entityIds = await listEntityIds(ctx, true);
  const now = ctx.clock();
  const { rows, total } = await listLinks(ctx.db, {
    entityIds,
    activeAt: q.show === 'active' ? now : null,
    page: q.page,
    perPage: q.per_page,
  });
  return { data: rows.map((r) => presentLink(r, now)), total };
}

export async function getSignupLink(ctx: Ctx, id: number): Promise<SignupLinkView> {
  manager(ctx);
  return presentLink(await linkInScope(ctx, id), ctx.clock());
}

/** POST /signup-links/{id}/revoke: works at once (the sign-up re-checks in its own statement); twice is 409. */
export async function revokeSignupLink(ctx: Ctx, id: number): Promise<SignupLinkView> {
  manager(ctx);
  await linkInScope(ctx, id);
  const now = ctx.clock();
  if (!(await revokeLink(ctx.db, id, now))) throw conflict(M.alreadyRevoked);
  return presentLink(await linkInScope(ctx, id), now);
}

/** GET /signup-links/signups: sign-ups through links of homes in scope (default: those waiting for approval). */
export async function listSignupsOf(ctx: Ctx, q: z.output<typeof SignupListQuery>) {
  manager(ctx);
  if (q.link_id !== undefined) await linkInScope(ctx, q.link_id);
  const { rows, total } = await listSignups(ctx.db, {
    entityIds: await listEntityIds(ctx, true),
    status: q.status,
    linkId: q.link_id,
    search: q.search || undefined,
    page: q.page,
    perPage: q.per_page,
  });
  return { data: rows.map(presentSignup), total };
}

async function signupInScope(ctx: Ctx, id: number): Promise<SignupRow> {
  const signup = await findSignup(ctx.db, id);
  if (!signup || !inScope(await entityScope(ctx), signup.entity_id)) throw notFound();
  return signup;
}

/**
 * POST /signup-links/signups/{id}/approve. The decision is one conditional UPDATE, so an approve and a reject (or two
 * approves) at once: one wins, the other gets 409. A link that assigns the certificate on approval assigns it in the
 * same transaction (already holding one is fine: the person keeps it).
 */
export async function approveSignup(ctx: Ctx, id: number): Promise<SignupView> {
  const actor = manager(ctx);
  await signupInScope(ctx, id);
  const now = ctx.clock();
  await ctx.db.transaction().execute(async (trx) => {
    const decided = await decideSignup(trx, id, { status: 'approved', by: actor.userId, at: now });
    if (!decided) throw conflict(M.alreadyDecided);
    const link = await trx
      .selectFrom('signup_links')
      .select(['entity_id', 'care_certificate_version_id', 'care_certificate_when'])
      .where('id', '=', decided.link_id)
      .executeTakeFirstOrThrow();
    if (decided.user_id && link.care_certificate_version_id && link.care_certificate_when === 'approval') {
      const held = await trx
        .selectFrom('care_certificates')
        .select('id')
        .where('user_id', '=', decided.user_id)
        .where('version_id', '=', link.care_certificate_version_id)
        .executeTakeFirst();
      if (!held)
        await insertCertificate(trx, {
          userId: decided.user_id,
          entityId: link.entity_id,
          versionId: link.care_certificate_version_id,
          startedOn: londonDate(now),
          assignedBy: actor.userId,
        });
    }
  });
  return presentSignup(await signupInScope(ctx, id));
}

/**
 * POST /signup-links/signups/{id}/reject. In one transaction: the sign-up is decided (409 when it was already), the
 * account row is locked (an attempt starting meanwhile waits for it), then the account is removed when it has no
 * learning records, or else kept for them and deactivated: password removed, every session and token ended.
 */
export async function rejectSignup(ctx: Ctx, id: number): Promise<{ view: SignupView; message: string }> {
  const actor = manager(ctx);
  await signupInScope(ctx, id);
  const now = ctx.clock();
  const account = await ctx.db.transaction().execute(async (trx) => {
    const decided = await decideSignup(trx, id, { status: 'rejected', by: actor.userId, at: now });
    if (!decided) throw conflict(M.alreadyDecided);
    if (!decided.user_id) return 'removed' as const;
    await trx.selectFrom('users').select('id').where('id', '=', decided.user_id).forUpdate().execute();
    const keep = await hasLearningRecords(trx, decided.user_id);
    await trx
      .updateTable('signup_link_signups')
      .set({ account: keep ? 'deactivated' : 'removed' })
      .where('id', '=', id)
      .execute();
    if (keep) {
      await trx
        .updateTable('users')
        .set({ password_hash: null, updated_at: now })
        .where('id', '=', decided.user_id)
        .execute();
      await endUserSessions(trx, decided.user_id);
    } else {
      await trx.deleteFrom('users').where('id', '=', decided.user_id).execute();
    }
    return { userId: decided.user_id, kept: keep };
  });
  if (account !== 'removed') closeSocketsEverywhere(ctx.bus, { userId: account.userId });
  const kept = account !== 'removed' && account.kept;
  return {
    view: presentSignup(await signupInScope(ctx, id)),
    message: kept ? M.rejectedDeactivated : M.rejectedRemoved,
  };
}

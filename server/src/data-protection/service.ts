import {
  calendarDay,
  type EraseBody,
  type LeavingDateBody,
  DataProtectionMessages as M,
  Perm,
  type PersonalDataExport,
  type RetentionBody,
  type UserDataProtection,
} from '@cc/contracts';
import { recordAudit } from '../audit/record';
import { assertEntityInScope } from '../entities/scope';
import { actorOf, authorize, type Ctx, can } from '../http/context';
import { forbidden, invalid, invalidField, notFound } from '../http/errors';
import { assertMayManageUser } from '../permissions/privilege';
import { closeSocketsEverywhere } from '../realtime/socket-registry';
import { findUserByRef } from '../users/queries';
import { dateFormatOf } from '../whitelabel/service';
import { renderPersonalDataPdf } from './pdf';
import {
  entityRetention,
  erasedName,
  erasePersonalDetails,
  findEntityIdBySlug,
  findPersonRow,
  lockPerson,
  personalDataSections,
  personState,
  setEntityRetention,
  setLeavingDate,
} from './queries';

/**
 * Data protection (issue 35 §4, docs/data-protection.md). Over another person: "update users" (18), the person in the
 * caller's scope (404 otherwise, the same answer as a missing id), and holding every permission the person holds (a
 * manager cannot export or erase a person above them). The person herself may always download her own data.
 */
async function loadPerson(ctx: Ctx, ref: string) {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (!user) throw notFound();
  const self = user.id === actor.userId;
  if (!self) {
    await assertEntityInScope(ctx, user.primary_entity_id);
    authorize(ctx, [Perm.updateUser]);
    await assertMayManageUser(ctx, actor, user);
  }
  return { actor, user, self };
}

/** The day the training record goes: the leaving day plus the retention years (29 February -> 28 February). */
export function recordsRemovedOn(leftOn: string, years: number): string {
  const [y, m, d] = leftOn.split('-').map(Number) as [number, number, number];
  const at = new Date(Date.UTC(y + years, m - 1, d));
  if (at.getUTCMonth() !== m - 1) at.setUTCDate(0);
  return at.toISOString().slice(0, 10);
}

const iso = (v: Date | string | null | undefined) => (v == null ? null : new Date(v).toISOString());

/** GET /users/{id}/data-protection: the state the person's page shows and what the caller may do. */
export async function userDataProtection(ctx: Ctx, ref: string): Promise<UserDataProtection> {
  const actor = actorOf(ctx);
  const user = await findUserByRef(ctx.db, ref);
  if (!user) throw notFound();
  const self = user.id === actor.userId;
  let manages = false;
  if (!self) {
    await assertEntityInScope(ctx, user.primary_entity_id);
    authorize(ctx, [Perm.searchUsers, Perm.updateUser], 'any');
    manages = can(actor, [Perm.updateUser]);
    if (manages)
      manages = await assertMayManageUser(ctx, actor, user).then(
        () => true,
        () => false,
      );
  }
  const state = await personState(ctx.db, user.id);
  if (!state) throw notFound();
  return {
    left_on: state.left_on,
    erased_at: iso(state.erased_at),
    retention_years: state.retention_years,
    records_removed_on: state.left_on ? recordsRemovedOn(state.left_on, state.retention_years) : null,
    may_export: self || manages,
    may_set_leaving_date: manages && !state.erased_at,
    may_erase: manages && !state.erased_at,
  };
}

/** The export itself, with its request written to the audit trail (issue 35 §4 item 3) in one transaction. */
async function collect(ctx: Ctx, ref: string, format: 'json' | 'pdf') {
  const { user } = await loadPerson(ctx, ref);
  return ctx.db.transaction().execute(async (trx) => {
    const person = await findPersonRow(trx, user.id);
    if (!person) throw notFound();
    const sections = await personalDataSections(trx, user.id);
    await recordAudit(trx, ctx, {
      action: 'created',
      kind: 'personal_data',
      subjectId: user.id,
      entityId: user.primary_entity_id,
      userId: user.id,
      label: user.name,
      after: { format },
    });
    const data: PersonalDataExport = {
      generated_at: ctx.clock().toISOString(),
      person: JSON.parse(JSON.stringify(person)),
      sections: JSON.parse(JSON.stringify(sections)),
    };
    return { user, data };
  });
}

/** GET /users/{id}/personal-data: everything the product holds about the person, as JSON. */
export async function exportPersonalData(ctx: Ctx, ref: string) {
  const { user, data } = await collect(ctx, ref, 'json');
  return { data, filename: `personal-data-${user.id}.json` };
}

/** GET /users/{id}/personal-data.pdf: the same, readable, in the organisation's date format. */
export async function exportPersonalDataPdf(ctx: Ctx, ref: string) {
  const { user, data } = await collect(ctx, ref, 'pdf');
  const pdf = await renderPersonalDataPdf(data, await dateFormatOf(ctx, user.primary_entity_id));
  return { pdf, filename: `personal-data-${user.id}.pdf` };
}

/** PUT /users/{id}/leaving-date: a manager over the person (never oneself); fixed once the person is erased. */
export async function saveLeavingDate(ctx: Ctx, ref: string, body: LeavingDateBody) {
  const { user, self } = await loadPerson(ctx, ref);
  if (self) throw forbidden(M.notYourself);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockPerson(trx, user.id);
    if (!row) throw notFound();
    if (row.erased_at) throw invalidField('left_on', M.erasedLocked);
    if (row.left_on === body.left_on) return;
    await setLeavingDate(trx, user.id, body.left_on, ctx.clock());
    await recordAudit(trx, ctx, {
      action: 'updated',
      kind: 'user',
      subjectId: user.id,
      entityId: row.primary_entity_id,
      userId: user.id,
      label: row.name,
      before: { left_on: row.left_on },
      after: { left_on: body.left_on },
    });
  });
  return userDataProtection(ctx, String(user.id));
}

/**
 * POST /users/{id}/erase: a leaver's personal details removed (name "Former staff member #id", e-mail a placeholder,
 * password, devices, sessions and tokens gone: sign-in impossible), the training record kept. Refused (422) without a
 * leaving date, before it, once done, or when the typed name does not match; never oneself (403).
 */
export async function erasePerson(ctx: Ctx, ref: string, body: EraseBody) {
  const { user, self } = await loadPerson(ctx, ref);
  if (self) throw forbidden(M.notYourself);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await lockPerson(trx, user.id);
    if (!row) throw notFound();
    if (row.erased_at) throw invalid({ left_on: [M.alreadyErased] });
    if (!row.left_on) throw invalidField('left_on', M.noLeavingDate);
    if (row.left_on > calendarDay(ctx.clock())) throw invalidField('left_on', M.leavingDateFuture);
    if (body.confirm_name.trim().toLowerCase() !== row.name.trim().toLowerCase())
      throw invalidField('confirm_name', M.confirmName);
    await erasePersonalDetails(trx, user.id, ctx.clock());
    // The entry names the pseudonym: the trail is append-only, so writing the real name here would keep it forever.
    await recordAudit(trx, ctx, {
      action: 'updated',
      kind: 'personal_data',
      subjectId: user.id,
      entityId: row.primary_entity_id,
      userId: user.id,
      label: erasedName(user.id),
      after: {
        erased_at: ctx.clock().toISOString(),
        left_on: row.left_on,
        records_removed_on: recordsRemovedOn(row.left_on, row.retention_years),
      },
    });
  });
  closeSocketsEverywhere(ctx.bus, { userId: user.id });
  return userDataProtection(ctx, String(user.id));
}

/** GET /entities/{slug}/data-protection: the organisation's retention period (in scope, 404 outside; 2 or 53). */
async function scopedEntityId(ctx: Ctx, slug: string): Promise<number> {
  actorOf(ctx);
  const id = await findEntityIdBySlug(ctx.db, slug);
  if (id === undefined) throw notFound();
  await assertEntityInScope(ctx, id);
  return id;
}

export async function getRetention(ctx: Ctx, slug: string) {
  const entityId = await scopedEntityId(ctx, slug);
  authorize(ctx, [Perm.updateEntity, Perm.seeEntity], 'any');
  const row = await entityRetention(ctx.db, entityId);
  if (!row) throw notFound();
  return { retention_years: row.retention_years };
}

/** PUT /entities/{slug}/data-protection: "update organisation" (2), in scope. */
export async function saveRetention(ctx: Ctx, slug: string, body: RetentionBody) {
  const entityId = await scopedEntityId(ctx, slug);
  authorize(ctx, [Perm.updateEntity]);
  await ctx.db.transaction().execute(async (trx) => {
    const row = await entityRetention(trx, entityId, { lock: true });
    if (!row) throw notFound();
    if (row.retention_years === body.retention_years) return;
    await setEntityRetention(trx, entityId, body.retention_years, ctx.clock());
    await recordAudit(trx, ctx, {
      action: 'updated',
      kind: 'entity',
      subjectId: entityId,
      entityId,
      label: row.name,
      before: { retention_years: row.retention_years },
      after: { retention_years: body.retention_years },
    });
  });
  return { retention_years: body.retention_years };
}

import {
  BookingsMessages,
  BookingsPerm,
  DELEGATE_SETTINGS_DEFAULTS,
  type DelegateSettings,
  type DelegateSettingsBody,
  type DelegateSettingsUpdate,
  TRAINING_PROVIDER_DEFAULTS,
  type TrainingProviderSettings,
  type TrainingProviderSettingsUpdate,
} from '@cc/contracts';
import { assertEntityInScope } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { type FieldErrors, HttpError, invalid, notFound } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';
import {
  effectiveDelegateSettings,
  findEntityBySlug,
  findTrainingProviderSettings,
  isCheckViolation,
  upsertDelegateSettings,
  upsertTrainingProviderSettings,
} from './settings-queries';

/**
 * /entities/{slug}/training-provider-settings and /entities/{slug}/delegate-settings (issue 15; contracts
 * bookings.ts). A training company without a row runs by the contract's defaults; an organisation without delegate
 * settings follows the nearest organisation above it that has them, else the defaults.
 * Order of refusals: an entity missing or outside the caller's scope is 404 (nothing revealed), then 403 without the
 * permission, then 422 when the entity is not a training company.
 */

export const NOT_A_TRAINING_COMPANY =
  'Training provider settings are only for training companies: this organisation does not run training for others.';

const PROVIDER_DEFAULTS = TRAINING_PROVIDER_DEFAULTS;
const DELEGATE_DEFAULTS = DELEGATE_SETTINGS_DEFAULTS;

async function entityInScope(ctx: Ctx, slug: string) {
  const entity = await findEntityBySlug(ctx.db, slug);
  if (!entity) throw notFound();
  await assertEntityInScope(ctx, entity.id);
  return entity;
}

async function providerEntity(ctx: Ctx, slug: string) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, [BookingsPerm.trainingProvider]);
  if (!entity.is_training_company) throw new HttpError(422, NOT_A_TRAINING_COMPANY);
  return entity;
}

async function delegateEntity(ctx: Ctx, slug: string) {
  const entity = await entityInScope(ctx, slug);
  authorize(ctx, [BookingsPerm.createBookings, BookingsPerm.editBooking], 'any');
  return entity;
}

function presentProvider(
  entityId: number,
  row: Awaited<ReturnType<typeof findTrainingProviderSettings>>,
): TrainingProviderSettings {
  if (!row) return { ...PROVIDER_DEFAULTS, entity_id: entityId };
  return {
    entity_id: entityId,
    delegate_auto_accept_period: row.delegate_auto_accept_period,
    delegate_removal_cutoff_hours: row.delegate_removal_cutoff_hours,
    practical_min_delegates: row.practical_min_delegates,
    practical_max_delegates: row.practical_max_delegates,
    theory_min_delegates: row.theory_min_delegates,
    theory_max_delegates: row.theory_max_delegates,
    waitlist_claim_hours: row.waitlist_claim_hours,
    waitlist_cutoff_hours: row.waitlist_cutoff_hours,
    minimum_decision_hours: row.minimum_decision_hours,
    under_minimum_action: row.under_minimum_action,
  };
}

function presentDelegate(
  entityId: number,
  row: Awaited<ReturnType<typeof upsertDelegateSettings>>,
): DelegateSettings {
  return {
    entity_id: entityId,
    require_approval: row.require_approval,
    allow_self_cancel: row.allow_self_cancel,
    send_calendar_invites: row.send_calendar_invites,
    notify_managers: row.notify_managers,
  };
}

/** The settings a training company's sessions run by (defaults when it never saved any). */
export async function trainingProviderSettingsOf(
  db: Ctx['db'],
  entityId: number,
): Promise<TrainingProviderSettings> {
  return presentProvider(entityId, await findTrainingProviderSettings(db, entityId));
}

/**
 * The delegate settings that apply to each organisation's staff: its own row, else the nearest organisation above it
 * with one (a group sets them once for its homes), else the defaults. The booking rules and the notices read these.
 */
export async function appliedDelegateSettings(
  db: DbOrTrx,
  entityIds: number[],
): Promise<(entityId: number) => DelegateSettingsBody> {
  const rows = await effectiveDelegateSettings(db, [...new Set(entityIds)]);
  const byEntity = new Map(rows.map(({ entity_id, ...settings }) => [entity_id, settings]));
  return (entityId) => byEntity.get(entityId) ?? DELEGATE_DEFAULTS;
}

/** appliedDelegateSettings for one organisation. */
export async function appliedDelegateSettingsOf(
  db: DbOrTrx,
  entityId: number,
): Promise<DelegateSettingsBody> {
  return (await appliedDelegateSettings(db, [entityId]))(entityId);
}

export async function getTrainingProviderSettings(ctx: Ctx, slug: string): Promise<TrainingProviderSettings> {
  const entity = await providerEntity(ctx, slug);
  return trainingProviderSettingsOf(ctx.db, entity.id);
}

/** The min <= max pairs, checked on the settings as they will be after the PATCH (sent fields over stored ones). */
const PAIRS = [
  ['practical_min_delegates', 'practical_max_delegates'],
  ['theory_min_delegates', 'theory_max_delegates'],
] as const;

function minMaxErrors(merged: TrainingProviderSettings, sent: TrainingProviderSettingsUpdate): FieldErrors {
  const errors: FieldErrors = {};
  for (const [min, max] of PAIRS) {
    if (merged[min] <= merged[max]) continue;
    // Name the field the caller sent (the minimum when both or neither).
    const field = sent[max] !== undefined && sent[min] === undefined ? max : min;
    errors[field] = [BookingsMessages.minAboveMax];
  }
  return errors;
}

/**
 * PATCH: only the fields sent change. The merged settings are checked first for a clear field error; the upsert is
 * one statement whose CHECKs judge the row as stored at that moment, so a concurrent PATCH that slipped in between
 * the check and the write cannot leave min > max (the same 422 comes back).
 */
export async function updateTrainingProviderSettings(
  ctx: Ctx,
  slug: string,
  body: TrainingProviderSettingsUpdate,
): Promise<TrainingProviderSettings> {
  const entity = await providerEntity(ctx, slug);
  const current = await trainingProviderSettingsOf(ctx.db, entity.id);
  const sent = Object.fromEntries(
    Object.entries(body).filter(([, v]) => v !== undefined),
  ) as TrainingProviderSettingsUpdate;
  const errors = minMaxErrors({ ...current, ...sent }, sent);
  if (Object.keys(errors).length) throw invalid(errors);
  try {
    const row = await upsertTrainingProviderSettings(ctx.db, entity.id, sent, ctx.clock());
    return presentProvider(entity.id, row);
  } catch (error) {
    if (!isCheckViolation(error)) throw error;
    // A concurrent PATCH changed the other half of a pair since the check: name the pair as it is now.
    const now = await trainingProviderSettingsOf(ctx.db, entity.id);
    const raced = minMaxErrors({ ...now, ...sent }, sent);
    throw invalid(
      Object.keys(raced).length ? raced : { practical_min_delegates: [BookingsMessages.minAboveMax] },
    );
  }
}

/** GET: the settings that apply to the organisation's staff, inherited from above until it saves its own. */
export async function getDelegateSettings(ctx: Ctx, slug: string): Promise<DelegateSettings> {
  const entity = await delegateEntity(ctx, slug);
  return { ...(await appliedDelegateSettingsOf(ctx.db, entity.id)), entity_id: entity.id };
}

export async function updateDelegateSettings(
  ctx: Ctx,
  slug: string,
  body: DelegateSettingsUpdate,
): Promise<DelegateSettings> {
  const entity = await delegateEntity(ctx, slug);
  const sent = Object.fromEntries(
    Object.entries(body).filter(([, v]) => v !== undefined),
  ) as DelegateSettingsUpdate;
  // An organisation's first save starts from what applied to it (the settings inherited from above), so only the
  // fields sent change for its staff.
  const applied = await appliedDelegateSettingsOf(ctx.db, entity.id);
  const row = await upsertDelegateSettings(
    ctx.db,
    entity.id,
    { first: { ...applied, ...sent }, sent },
    ctx.clock(),
  );
  return presentDelegate(entity.id, row);
}

import {
  CARE_CERTIFICATE_DEFAULT_WEEKS,
  CareCertificatePerm,
  type CareCertificateSettingsUpdate,
  type CareCertificateSettingsView,
} from '@cc/contracts';
import { sql } from 'kysely';
import { entityScope } from '../entities/scope';
import { authorize, type Ctx } from '../http/context';
import { invalidField } from '../http/errors';
import type { DbOrTrx } from '../jobs/queries';

/**
 * GET / PATCH /care-certificate-settings?actingAs (86): an organisation's settings, inherited from the nearest
 * organisation above it that saved its own, else the defaults (like bookings' delegate settings). A first PATCH
 * starts from the values that applied, so only the fields sent change.
 */
export interface AppliedCareCertificateSettings {
  expected_weeks: number;
  default_version_id: number | null;
  from: { id: number; name: string } | null;
}

const DEFAULTS: AppliedCareCertificateSettings = {
  expected_weeks: CARE_CERTIFICATE_DEFAULT_WEEKS,
  default_version_id: null,
  from: null,
};

/** The settings that apply to each organisation: its own row, else the nearest ancestor's, else the defaults. */
export async function appliedSettings(
  db: DbOrTrx,
  entityIds: number[],
): Promise<(entityId: number) => AppliedCareCertificateSettings> {
  const ids = [...new Set(entityIds)];
  const byEntity = new Map<number, AppliedCareCertificateSettings>();
  if (ids.length) {
    const { rows } = await sql<{
      entity_id: number;
      from_id: number;
      from_name: string;
      expected_weeks: number;
      default_version_id: number | null;
    }>`
      WITH RECURSIVE chain AS (
        SELECT e.id AS entity_id, e.id, e.parent_id, 0 AS depth FROM entities e WHERE e.id IN (${sql.join(ids)})
        UNION ALL
        SELECT c.entity_id, e.id, e.parent_id, c.depth + 1 FROM entities e JOIN chain c ON e.id = c.parent_id
        WHERE c.depth < 50
      )
      SELECT DISTINCT ON (c.entity_id) c.entity_id, s.entity_id AS from_id, e.name AS from_name, s.expected_weeks,
        s.default_version_id
      FROM chain c JOIN care_certificate_settings s ON s.entity_id = c.id JOIN entities e ON e.id = s.entity_id
      ORDER BY c.entity_id, c.depth`.execute(db);
    for (const r of rows) {
      byEntity.set(r.entity_id, {
        expected_weeks: Number(r.expected_weeks),
        default_version_id: r.default_version_id,
        from: { id: r.from_id, name: r.from_name },
      });
    }
  }
  return (entityId) => byEntity.get(entityId) ?? DEFAULTS;
}

export async function appliedSettingsOf(db: DbOrTrx, entityId: number) {
  return (await appliedSettings(db, [entityId]))(entityId);
}

async function settingsEntity(ctx: Ctx) {
  authorize(ctx, [CareCertificatePerm.assign]);
  return (await entityScope(ctx)).baseId;
}

const present = (entityId: number, s: AppliedCareCertificateSettings): CareCertificateSettingsView => ({
  entity_id: entityId,
  expected_weeks: s.expected_weeks,
  default_version_id: s.default_version_id,
  inherited_from: s.from,
});

export async function getSettings(ctx: Ctx): Promise<CareCertificateSettingsView> {
  const entityId = await settingsEntity(ctx);
  return present(entityId, await appliedSettingsOf(ctx.db, entityId));
}

export async function updateSettings(
  ctx: Ctx,
  body: CareCertificateSettingsUpdate,
): Promise<CareCertificateSettingsView> {
  const entityId = await settingsEntity(ctx);
  const sent = Object.fromEntries(
    Object.entries(body).filter(([, v]) => v !== undefined),
  ) as CareCertificateSettingsUpdate;
  if (sent.default_version_id != null) {
    const version = await ctx.db
      .selectFrom('care_certificate_versions')
      .select('id')
      .where('id', '=', sent.default_version_id)
      .executeTakeFirst();
    if (!version) throw invalidField('default_version_id', 'Choose a version.');
  }
  const applied = await appliedSettingsOf(ctx.db, entityId);
  const now = ctx.clock();
  try {
    await ctx.db
      .insertInto('care_certificate_settings')
      .values({
        entity_id: entityId,
        expected_weeks: sent.expected_weeks ?? applied.expected_weeks,
        default_version_id:
          sent.default_version_id !== undefined ? sent.default_version_id : applied.default_version_id,
        updated_at: now,
      })
      .onConflict((oc) => oc.column('entity_id').doUpdateSet({ ...sent, updated_at: now }))
      .execute();
  } catch (e) {
    // The version was deleted between the check and the write.
    if ((e as { code?: string } | null)?.code === '23503')
      throw invalidField('default_version_id', 'Choose a version.');
    throw e;
  }
  return present(entityId, await appliedSettingsOf(ctx.db, entityId));
}

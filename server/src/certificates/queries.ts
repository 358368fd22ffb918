import type { Db } from '../db/connect';
import type { Trx } from '../results/queries';

/** Certificate branding rows and white-label logos along an entity chain (nearest first is the caller's job). */
export async function brandingAlong(db: Db, chain: readonly number[]) {
  if (!chain.length) return { branding: [], entities: [] };
  const [branding, entities] = await Promise.all([
    db
      .selectFrom('certificate_branding')
      .selectAll()
      .where('entity_id', 'in', [...chain])
      .execute(),
    db
      .selectFrom('entities')
      .select(['id', 'name', 'whitelabel'])
      .where('id', 'in', [...chain])
      .execute(),
  ]);
  return { branding, entities };
}

export async function findOwnBranding(db: Db, entityId: number) {
  return db
    .selectFrom('certificate_branding')
    .selectAll()
    .where('entity_id', '=', entityId)
    .executeTakeFirst();
}

export async function upsertBranding(
  trx: Trx,
  entityId: number,
  values: {
    title?: string | null;
    signatory_name?: string | null;
    signatory_role?: string | null;
    accent_colour?: string | null;
    logo_file_id?: number | null;
  },
  now: Date,
) {
  await trx
    .insertInto('certificate_branding')
    .values({ entity_id: entityId, ...values, updated_at: now })
    .onConflict((oc) => oc.column('entity_id').doUpdateSet({ ...values, updated_at: now }))
    .execute();
}

export async function findImageFile(db: Db, where: { id?: number; uuid?: string }) {
  let q = db.selectFrom('files').select(['id', 'uuid', 'entity_id', 'storage_key', 'mime_type']);
  if (where.id !== undefined) q = q.where('id', '=', where.id);
  else if (where.uuid !== undefined) q = q.where('uuid', '=', where.uuid);
  else return undefined;
  return q.executeTakeFirst();
}

export async function findEntityBySlug(db: Db, slug: string) {
  return db.selectFrom('entities').select(['id', 'slug', 'name']).where('slug', '=', slug).executeTakeFirst();
}

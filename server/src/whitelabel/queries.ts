import type { DateFormat } from '@cc/contracts';
import type { Transaction } from 'kysely';
import type { Db } from '../db/connect';
import type { Database } from '../db/schema';

/** White-label and public-file SQL (STYLE "SQL in one place"). */

type Executor = Db | Transaction<Database>;

const brandingColumns = ['id', 'slug', 'name', 'level', 'parent_id', 'whitelabel', 'date_format'] as const;

export async function findBrandingBySlug(db: Executor, slug: string) {
  return db.selectFrom('entities').select(brandingColumns).where('slug', '=', slug).executeTakeFirst();
}

export async function findBrandingBySubdomain(db: Executor, subdomain: string) {
  return db
    .selectFrom('entities')
    .select(brandingColumns)
    .where('subdomain', '=', subdomain)
    .executeTakeFirst();
}

export async function findBrandingById(db: Executor, id: number) {
  return db.selectFrom('entities').select(brandingColumns).where('id', '=', id).executeTakeFirst();
}

/** Reads the row under a lock so two concurrent saves merge instead of overwriting each other. */
export async function lockBranding(trx: Transaction<Database>, id: number) {
  return trx
    .selectFrom('entities')
    .select(brandingColumns)
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirstOrThrow();
}

/** `dateFormat`: undefined leaves the column alone, null clears it (follow the parent again). */
export async function saveBranding(
  trx: Transaction<Database>,
  id: number,
  whitelabel: object,
  now: Date,
  dateFormat?: DateFormat | null,
) {
  await trx
    .updateTable('entities')
    .set({
      whitelabel: JSON.stringify(whitelabel),
      updated_at: now,
      ...(dateFormat === undefined ? {} : { date_format: dateFormat }),
    })
    .where('id', '=', id)
    .execute();
}

export async function insertFile(
  trx: Transaction<Database>,
  values: {
    entity_id: number;
    purpose: string;
    storage_key: string;
    original_name: string;
    mime_type: string;
    size_bytes: number;
  },
) {
  return trx.insertInto('files').values(values).returning(['id', 'uuid']).executeTakeFirstOrThrow();
}

/** Deletes the entity's file rows with these uuids and returns their storage keys (removed after commit). */
export async function deleteEntityFiles(trx: Transaction<Database>, entityId: number, uuids: string[]) {
  if (!uuids.length) return [];
  const rows = await trx
    .deleteFrom('files')
    .where('entity_id', '=', entityId)
    .where('uuid', 'in', uuids)
    .returning('storage_key')
    .execute();
  return rows.map((r) => r.storage_key);
}

/** A file row whose purpose is public (white-label images), or undefined. */
export async function findPublicFile(db: Db, uuid: string, purposes: readonly string[]) {
  return db
    .selectFrom('files')
    .select(['uuid', 'storage_key', 'original_name', 'mime_type', 'size_bytes', 'purpose'])
    .where('uuid', '=', uuid)
    .where('purpose', 'in', purposes)
    .executeTakeFirst();
}

/** An entity's own date format and its parent's (level A), in one query. */
export async function findDateFormats(db: Executor, id: number) {
  return db
    .selectFrom('entities as e')
    .leftJoin('entities as p', (join) => join.onRef('p.id', '=', 'e.parent_id').on('p.level', '=', 'A'))
    .select(['e.date_format as own', 'p.date_format as parent', 'e.level'])
    .where('e.id', '=', id)
    .executeTakeFirst();
}

import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { slugsLike } from './queries';

/** Lower-case, dashes, no leading/trailing dash; an all-digit result is prefixed (ids and slugs share /entities/{id}). */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 90)
    .replace(/-+$/, '');
  if (base.length < 2) return base ? `entity-${base}` : 'entity';
  return /^\d+$/.test(base) ? `entity-${base}` : base;
}

/** The slug of the name when free, else the first free "slug-N" (one query). Used by entity creation and registration. */
export async function uniqueEntitySlug(db: Kysely<Database>, name: string): Promise<string> {
  const base = slugify(name);
  const taken = new Set(await slugsLike(db, base));
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
}

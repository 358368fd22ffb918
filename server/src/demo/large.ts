import { sql } from 'kysely';
import type { Db } from '../db/connect';
import { insertCareRoles, insertEntity, insertStaff, insertStarterTypes, isoDaysAgo } from './seed';

/** Homes by default: one per 40 staff, at least 3 and at most 250. */
export const defaultHomeCount = (users: number) => Math.min(250, Math.max(3, Math.floor(users / 40)));

/** Staff per insertStaff call: each call is one e-mail domain, so addresses stay unique across calls. */
const CHUNK = 2000;

const HOME_WORDS = [
  'Oak',
  'Elm',
  'Ash',
  'Birch',
  'Cedar',
  'Hazel',
  'Maple',
  'Rowan',
  'Willow',
  'Holly',
  'Laurel',
  'Beech',
  'Alder',
  'Poplar',
  'Linden',
  'Juniper',
  'Heather',
  'Bramble',
  'Clover',
  'Meadow',
];
const HOME_KINDS = ['House', 'Lodge', 'Court', 'Manor', 'Grange', 'View', 'Gardens', 'Place'];

export interface LargeOrganisationOptions {
  users: number;
  homes?: number;
  passwordHash: string;
  now?: Date;
  onProgress?: (done: number, total: number) => void;
}

export interface LargeOrganisation {
  groupId: number;
  slug: string;
  name: string;
  homes: number;
  users: number;
  adminEmail: string;
}

/** The next free group number, so a second run adds "Northwind Care Group 2" rather than failing on a slug. */
async function nextGroupNumber(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number | null }>`
    SELECT max(substring(slug from '^northwind-(\\d+)$')::int) AS n FROM entities WHERE slug ~ '^northwind-\\d+$'
  `.execute(db);
  return (rows[0]?.n ?? 0) + 1;
}

/**
 * A large organisation for benchmarks (npm run seed -- --users N): a level A "Northwind Care Group <n>" with level B
 * homes, the starter types and care roles, an administrator, and N staff spread across the homes, bulk-inserted in
 * chunks, all in one transaction (a failed run leaves nothing behind). Everyone's password is the demo password.
 */
export async function seedLargeOrganisation(db: Db, o: LargeOrganisationOptions): Promise<LargeOrganisation> {
  const now = o.now ?? new Date();
  const homeCount = o.homes ?? defaultHomeCount(o.users);
  return db.transaction().execute(async (trx) => {
    const n = await nextGroupNumber(trx);
    const slug = `northwind-${n}`;
    const name = `Northwind Care Group ${n}`;
    const domain = `northwind${n}.example`;
    const groupId = await insertEntity(trx, {
      slug,
      name,
      level: 'A',
      address: `${n} Northwind Way, Sheffield S1 2AB`,
      email: `office@${domain}`,
      whitelabel: { primary: '#1d4ed8', accent: '#f97316', companyName: name },
    });
    const types = await insertStarterTypes(trx, groupId);
    const roles = await insertCareRoles(trx, groupId);

    const homeIds: number[] = [];
    for (let k = 0; k < homeCount; k++) {
      const word = HOME_WORDS[k % HOME_WORDS.length];
      const kind = HOME_KINDS[Math.floor(k / HOME_WORDS.length) % HOME_KINDS.length];
      const round = Math.floor(k / (HOME_WORDS.length * HOME_KINDS.length));
      homeIds.push(
        await insertEntity(trx, {
          slug: `${slug}-home-${k + 1}`,
          name: `${word} ${kind}${round ? ` ${round + 1}` : ''}`,
          level: 'B',
          parent_id: groupId,
        }),
      );
    }

    const adminEmail = `admin@${domain}`;
    await trx
      .insertInto('users')
      .values({
        name: `Northwind ${n} Administrator`,
        email: adminEmail,
        password_hash: o.passwordHash,
        email_verified_at: now,
        primary_entity_id: groupId,
        role_id: roles['Administrator'],
        type_id: types.Administrator,
        start_date: isoDaysAgo(900, now),
        password_changed_at: now,
        user_preferences: '{}',
      })
      .execute();

    let inserted = 0;
    for (let chunk = 0; inserted < o.users; chunk++) {
      const count = Math.min(CHUNK, o.users - inserted);
      // Rotate the homes so every chunk spreads over all of them and the totals stay even.
      const offset = inserted % homeIds.length;
      inserted += await insertStaff(trx, {
        entityIds: [...homeIds.slice(offset), ...homeIds.slice(0, offset)],
        roleIds: roles,
        learnerTypeId: types.Learner,
        count,
        passwordHash: o.passwordHash,
        emailDomain: `s${chunk + 1}.${domain}`,
        seed: n * 1000 + chunk,
        now,
      });
      o.onProgress?.(inserted, o.users);
    }
    return { groupId, slug, name, homes: homeCount, users: inserted, adminEmail };
  });
}

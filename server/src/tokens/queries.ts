import type { TokenStatus } from '@cc/contracts';
import { type Kysely, type SqlBool, sql, type Transaction } from 'kysely';
import type { Db } from '../db/connect';
import { pageWithTotal } from '../db/paged';
import type { Database } from '../db/schema';

/** SQL of personal access tokens (kind 'personal'); device logins' tokens are auth/queries.ts's. */

export interface TokenRow {
  id: number;
  name: string;
  token_prefix: string | null;
  abilities: string[];
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  last_used_ip: string | null;
  revoked_at: Date | null;
  user_id: number;
  owner_uuid: string;
  owner_name: string;
  owner_email: string;
  owner_entity_id: number;
}

function base(db: Kysely<Database>) {
  return db
    .selectFrom('personal_access_tokens as t')
    .innerJoin('users as u', 'u.id', 't.user_id')
    .where('t.kind', '=', 'personal');
}

const columns = [
  't.id',
  't.name',
  't.token_prefix',
  't.abilities',
  't.created_at',
  't.expires_at',
  't.last_used_at',
  't.last_used_ip',
  't.revoked_at',
  't.user_id',
  'u.uuid as owner_uuid',
  'u.name as owner_name',
  'u.email as owner_email',
  'u.primary_entity_id as owner_entity_id',
] as const;

export interface TokenFilter {
  /** Only this user's tokens. */
  userId?: number;
  /** Only tokens of users whose primary organisation is one of these (null: no bound, a super admin's). */
  entityIds?: number[] | null;
  search?: string;
  status?: TokenStatus;
  now: Date;
  soonDays: number;
}

function filtered(db: Kysely<Database>, f: TokenFilter) {
  let q = base(db);
  if (f.userId !== undefined) q = q.where('t.user_id', '=', f.userId);
  if (f.entityIds) q = q.where('u.primary_entity_id', 'in', f.entityIds.length ? f.entityIds : [-1]);
  if (f.search) {
    const like = `%${f.search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    q = q.where((eb) =>
      eb.or([eb('t.name', 'ilike', like), eb('t.token_prefix', 'ilike', like), eb('u.name', 'ilike', like)]),
    );
  }
  if (f.status) q = q.where(statusClause(f.status, f.now, f.soonDays));
  return q;
}

function statusClause(status: TokenStatus, now: Date, soonDays: number) {
  const soon = new Date(now.getTime() + soonDays * 86_400_000);
  switch (status) {
    case 'revoked':
      return sql<SqlBool>`t.revoked_at IS NOT NULL`;
    case 'expired':
      return sql<SqlBool>`t.revoked_at IS NULL AND t.expires_at <= ${now}`;
    case 'expires_soon':
      return sql<SqlBool>`t.revoked_at IS NULL AND t.expires_at > ${now} AND t.expires_at <= ${soon}`;
    case 'active':
      return sql<SqlBool>`t.revoked_at IS NULL AND t.expires_at > ${soon}`;
  }
}

export async function listTokens(
  db: Db,
  f: TokenFilter,
  page: { page: number; per_page: number },
): Promise<{ rows: TokenRow[]; total: number }> {
  const { rows, total } = await pageWithTotal(
    filtered(db, f),
    (q) => q.select(columns).orderBy('t.created_at', 'desc').orderBy('t.id', 'desc'),
    { page: page.page, perPage: page.per_page },
  );
  return { rows: rows as TokenRow[], total };
}

export async function findToken(db: Kysely<Database>, id: number, o: { forUpdate?: boolean } = {}) {
  let q = base(db).select(columns).where('t.id', '=', id);
  if (o.forUpdate) q = q.forUpdate(['t']) as typeof q;
  return (await q.executeTakeFirst()) as TokenRow | undefined;
}

/** Locks the owner's row: creating tokens for one user is serialised, so the live count cannot be overtaken. */
export async function lockOwner(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx.selectFrom('users').select('id').where('id', '=', userId).forUpdate().execute();
}

export async function countLiveTokens(db: Kysely<Database>, userId: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('personal_access_tokens')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .where('kind', '=', 'personal')
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertToken(
  trx: Transaction<Database>,
  t: { userId: number; name: string; hash: string; prefix: string; abilities: number[]; expiresAt: Date },
): Promise<number> {
  const row = await trx
    .insertInto('personal_access_tokens')
    .values({
      user_id: t.userId,
      name: t.name,
      token_hash: t.hash,
      token_prefix: t.prefix,
      kind: 'personal',
      abilities: JSON.stringify(t.abilities.map(String)),
      expires_at: t.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Sets revoked_at once; answers false when it was already set. */
export async function markRevoked(trx: Transaction<Database>, id: number, now: Date): Promise<boolean> {
  const result = await trx
    .updateTable('personal_access_tokens')
    .set({ revoked_at: now })
    .where('id', '=', id)
    .where('kind', '=', 'personal')
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The organisation's longest token expiry: the level A organisation's value applies to its homes. */
export async function patMaxDays(db: Kysely<Database>, aEntityId: number): Promise<number> {
  const row = await db
    .selectFrom('entities')
    .select('pat_max_days')
    .where('id', '=', aEntityId)
    .executeTakeFirst();
  return row?.pat_max_days ?? 365;
}

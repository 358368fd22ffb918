import { randomToken } from '../http/tokens';
import type { Db } from './connect';

/**
 * Keys every server process behind one database shares (server_secrets, migration 016): the guest CSRF signing key
 * and the package launch key (issue 11). Made by the server on first use, never configured by hand and never sent
 * out; concurrent first uses across processes all end up with the one row that won the insert.
 */
export type ServerSecretName = 'guest_csrf' | 'package_launch_key';

/** Per database (tests run many databases in one process), per name. */
const cache = new WeakMap<Db, Map<ServerSecretName, Promise<Buffer>>>();

export function serverSecret(db: Db, name: ServerSecretName): Promise<Buffer> {
  let byName = cache.get(db);
  if (!byName) {
    byName = new Map();
    cache.set(db, byName);
  }
  let key = byName.get(name);
  if (!key) {
    key = loadOrCreate(db, name);
    byName.set(name, key);
    key.catch(() => byName.delete(name)); // a failed read is tried again by the next caller
  }
  return key;
}

async function loadOrCreate(db: Db, name: ServerSecretName): Promise<Buffer> {
  await db
    .insertInto('server_secrets')
    .values({ name, value: randomToken(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', name)
    .executeTakeFirstOrThrow();
  return Buffer.from(row.value, 'base64url');
}

import { PERMISSIONS, type TokenView, tokenStatus } from '@cc/contracts';
import type { Actor } from '../http/context';
import type { TokenRow } from './queries';

const permissionName = new Map(PERMISSIONS.map((p) => [p.id, p.name]));
const iso = (d: Date | string | null) => (d === null ? null : new Date(d).toISOString());

/** A token as listed: never its hash; its abilities with their names. */
export function presentToken(row: TokenRow, actor: Actor, now: Date, mayRevokeOthers: boolean): TokenView {
  const revoked_at = iso(row.revoked_at);
  // Personal tokens always have an expiry (the create rule); an old row without one reads as already ended.
  const expires_at = iso(row.expires_at) ?? iso(row.created_at) ?? now.toISOString();
  const own = row.user_id === actor.userId;
  return {
    id: row.id,
    name: row.name,
    token_prefix: row.token_prefix ?? '',
    abilities: row.abilities
      .map(Number)
      .filter((id) => Number.isInteger(id))
      .map((id) => ({ id, name: permissionName.get(id) ?? `Permission ${id}` })),
    created_at: iso(row.created_at) ?? '',
    expires_at,
    last_used_at: iso(row.last_used_at),
    last_used_ip: row.last_used_ip,
    revoked_at,
    status: tokenStatus({ revoked_at, expires_at }, now),
    owner: { id: row.user_id, uuid: row.owner_uuid, name: row.owner_name, email: row.owner_email },
    can_revoke:
      revoked_at === null &&
      actor.tokenKind !== 'personal' &&
      (actor.superAdmin || actor.permissions.has(102)) &&
      (own || mayRevokeOthers),
  };
}

import { PERMISSIONS, type PermissionCategory, type UserPermissionGrant } from '@cc/contracts';
import type { GrantRow } from './queries';

const byId = new Map(PERMISSIONS.map((p) => [p.id, p]));

export function presentPermission(p: { id: number; name: string; description: string; category: string }) {
  return { id: p.id, name: p.name, description: p.description, category: p.category };
}

/** The catalogue (spec 2 §6), optionally one category. */
export function presentCatalogue(category?: PermissionCategory) {
  return PERMISSIONS.filter((p) => !category || p.category === category).map(presentPermission);
}

/** The catalogue with whether the entity or type holds each permission. */
export function presentGranted(granted: Iterable<number>) {
  const set = new Set(granted);
  return PERMISSIONS.map((p) => ({ ...presentPermission(p), granted: set.has(p.id) }));
}

const iso = (d: Date | string) => new Date(d).toISOString();

export function presentGrant(row: GrantRow): UserPermissionGrant {
  const p = byId.get(row.permission_id);
  return {
    id: row.id,
    user_id: row.user_id,
    permission_id: row.permission_id,
    permission: presentPermission(
      p ?? { id: row.permission_id, name: String(row.permission_id), description: '', category: 'system' },
    ),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

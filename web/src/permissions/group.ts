import { PERMISSION_CATEGORIES, type PermissionCategory } from '@cc/contracts';

/** Display names of the permission categories (spec 2 §3: "content (Content Creator)", "compliance (Courses/Compliance)"). */
export const CATEGORY_LABELS: Record<PermissionCategory, string> = {
  system: 'System',
  entities: 'Organisations',
  users: 'Users',
  courses: 'Courses',
  content: 'Content Creator',
  reports: 'Reports',
  bookings: 'Bookings',
  certificates: 'Certificates',
  widgets: 'Widgets',
  records: 'Records',
  roles: 'Roles',
  types: 'Types',
  permissions: 'Permissions',
  compliance: 'Courses/Compliance',
  libraries: 'Libraries',
};

export interface PermissionLike {
  id: number;
  name: string;
  category: string;
}

export interface PermissionGroup<T> {
  category: string;
  label: string;
  permissions: T[];
}

/**
 * Groups permissions by category in the catalogue's category order (unknown categories last, by name), each
 * group sorted by id; empty categories are left out.
 */
export function groupByCategory<T extends PermissionLike>(permissions: readonly T[]): PermissionGroup<T>[] {
  const groups = new Map<string, T[]>();
  for (const p of permissions) {
    const list = groups.get(p.category) ?? [];
    list.push(p);
    groups.set(p.category, list);
  }
  const known = PERMISSION_CATEGORIES as readonly string[];
  const order = (c: string) => (known.includes(c) ? known.indexOf(c) : known.length);
  return [...groups.entries()]
    .sort(([a], [b]) => order(a) - order(b) || a.localeCompare(b))
    .map(([category, list]) => ({
      category,
      label:
        CATEGORY_LABELS[category as PermissionCategory] ??
        category.charAt(0).toUpperCase() + category.slice(1),
      permissions: [...list].sort((a, b) => a.id - b.id),
    }));
}

/** Case-insensitive filter on name, description and id. */
export function filterPermissions<T extends PermissionLike & { description?: string }>(
  permissions: readonly T[],
  text: string,
): T[] {
  const q = text.trim().toLowerCase();
  if (!q) return [...permissions];
  return permissions.filter(
    (p) =>
      p.name.toLowerCase().includes(q) ||
      (p.description ?? '').toLowerCase().includes(q) ||
      String(p.id) === q,
  );
}

/**
 * Why the server would refuse toggling a permission (spec 2 §6 and the server's escalation guard), or null when
 * it may be toggled: a caller without the manage permission, changing the permissions of their own access, or
 * granting a permission they do not hold themselves. A super admin may do all of it.
 */
export function toggleBlockedReason(input: {
  superAdmin: boolean;
  canManage: boolean;
  ownAccess: boolean;
  granted: boolean;
  held: boolean;
}): string | null {
  if (input.superAdmin) return null;
  if (!input.canManage) return 'You may view but not change these permissions.';
  if (input.ownAccess) return 'You cannot change the permissions that apply to yourself.';
  if (!input.granted && !input.held) return 'You can only grant permissions you hold yourself.';
  return null;
}

/**
 * What a permission is called on screen (issue 33 §1): its plain description ("Create user accounts"), never the
 * catalogue's shorthand name ("add user", "2x permission"); the name only when there is no description.
 */
export function permissionLabel(p: { name: string; description?: string }): string {
  const text = (p.description ?? '').trim().replace(/\.$/, '');
  if (text) return text;
  return p.name.charAt(0).toUpperCase() + p.name.slice(1);
}

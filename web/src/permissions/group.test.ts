import { PERMISSIONS } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { filterPermissions, groupByCategory, permissionLabel, toggleBlockedReason } from './group';

describe('groupByCategory', () => {
  it('groups the catalogue by category in the catalogue order, each group sorted by id', () => {
    const shuffled = [...PERMISSIONS].reverse();
    const groups = groupByCategory(shuffled);
    expect(groups[0]?.category).toBe('system');
    expect(groups.map((g) => g.category)).toEqual([...new Set(groups.map((g) => g.category))]);
    for (const g of groups) {
      const ids = g.permissions.map((p) => p.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      expect(g.permissions.every((p) => p.category === g.category)).toBe(true);
    }
    expect(groups.reduce((n, g) => n + g.permissions.length, 0)).toBe(PERMISSIONS.length);
  });

  it('uses the spec’s display names and leaves out empty categories; unknown ones go last', () => {
    const groups = groupByCategory([
      { id: 9, name: 'x', category: 'zebra' },
      { id: 63, name: 'content creator', category: 'content' },
      { id: 1, name: 'add entity', category: 'entities' },
    ]);
    expect(groups.map((g) => g.label)).toEqual(['Organisations', 'Content Creator', 'Zebra']);
  });
});

describe('filterPermissions', () => {
  it('matches name, description or the exact id', () => {
    const list = [
      {
        id: 19,
        name: 'acting-as',
        category: 'system',
        description: 'Act on behalf of another organisation.',
      },
      { id: 1, name: 'add entity', category: 'entities', description: 'Create organisations.' },
    ];
    expect(filterPermissions(list, 'ACTING').map((p) => p.id)).toEqual([19]);
    expect(filterPermissions(list, 'organisations').map((p) => p.id)).toEqual([1]);
    expect(filterPermissions(list, '1').map((p) => p.id)).toEqual([1]);
    expect(filterPermissions(list, '  ')).toHaveLength(2);
  });
});

describe('toggleBlockedReason (what the server would refuse)', () => {
  const base = { superAdmin: false, canManage: true, ownAccess: false, granted: false, held: true };
  it('lets a manager grant what they hold and revoke anything', () => {
    expect(toggleBlockedReason(base)).toBeNull();
    expect(toggleBlockedReason({ ...base, held: false, granted: true })).toBeNull();
  });
  it('blocks granting what one does not hold, one’s own access, and callers without the permission', () => {
    expect(toggleBlockedReason({ ...base, held: false })).toMatch(/hold yourself/);
    expect(toggleBlockedReason({ ...base, ownAccess: true })).toMatch(/apply to yourself/);
    expect(toggleBlockedReason({ ...base, canManage: false })).toMatch(/not change/);
  });
  it('never blocks a super admin', () => {
    expect(
      toggleBlockedReason({ ...base, superAdmin: true, canManage: false, ownAccess: true, held: false }),
    ).toBeNull();
  });
});

describe('permissionLabel', () => {
  it('shows the plain description, never the catalogue name or a bare number', () => {
    expect(permissionLabel({ name: 'add user', description: 'Create user accounts.' })).toBe(
      'Create user accounts',
    );
    expect(permissionLabel({ name: 'loose one', description: '' })).toBe('Loose one');
    for (const p of PERMISSIONS) {
      const label = permissionLabel(p);
      expect(label).not.toMatch(/\b(entity|entities|slug|reserved)\b/i);
      expect(label).not.toMatch(/\d{2,}/);
    }
  });
});

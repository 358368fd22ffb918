import { DEFAULT_WHITELABEL, PERMISSIONS } from '@cc/contracts';
import { describe, expect, it, vi } from 'vitest';
import { isBuiltPath } from '../router';
import { navSections, visibleNav } from './nav';

/**
 * The demo roles' permission sets, as server/src/db/demo/seed.ts TYPE_PERMISSIONS gives them (the web cannot import
 * the server; keep the two in step).
 */
const ALL = PERMISSIONS.map((p) => p.id);
const ROLES: Record<string, number[]> = {
  admin: ALL,
  manager: [
    3, 4, 5, 6, 7, 12, 13, 14, 15, 16, 17, 18, 19, 21, 22, 23, 24, 25, 26, 35, 36, 39, 40, 41, 42, 43, 44, 45,
    49, 50, 53, 56, 67, 68, 79, 80, 81, 86, 87, 88, 89, 93, 94, 95, 96, 97, 98, 104, 105, 108, 117, 118, 120,
    127,
  ],
  trainer: [6, 7, 9, 11, 21, 24, 25, 26, 29, 30, 44, 63, 80, 89, 104, 108, 109, 110, 123, 127, 128],
  learner: [6, 44, 80, 104, 108, 118, 127, 134],
};
const wl = {
  entityAltName: DEFAULT_WHITELABEL.entityAltName,
  entitiesAltName: DEFAULT_WHITELABEL.entitiesAltName,
  certificateGroupMenuName: DEFAULT_WHITELABEL.certificateGroupMenuName,
};
const flags = { can_see_new_dashboards: true, can_manage_bookings: true };

function checker(held: number[]) {
  const set = new Set(held);
  return (ids: number[], mode: 'all' | 'any' = 'all') =>
    mode === 'all' ? ids.every((id) => set.has(id)) : ids.some((id) => set.has(id));
}

describe('navigation', () => {
  for (const [role, held] of Object.entries(ROLES)) {
    it(`${role}: every visible entry opens a built page the role may open`, () => {
      const sections = visibleNav(navSections(wl), {
        can: checker(held),
        flags,
        slug: 'oakfield-house',
        isBuilt: isBuiltPath,
      });
      const items = sections.flatMap((s) => s.items);
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(isBuiltPath(item.href), `${role}: ${item.label} → ${item.href}`).toBe(true);
        if (item.permissions) expect(checker(held)(item.permissions, item.mode ?? 'any')).toBe(true);
      }
      // No empty section heading.
      for (const s of sections) expect(s.items.length).toBeGreaterThan(0);
    });
  }

  it('hides an entry whose route is a placeholder, and shows it once the route is built', () => {
    const all = { can: () => true, flags, slug: 'x' };
    const hrefs = (isBuilt: (p: string) => boolean) =>
      visibleNav(navSections(wl), { ...all, isBuilt }).flatMap((s) => s.items.map((i) => i.href));
    // Every route is built since issue 18: a placeholder is simulated (the menu asks the router's answer, no hand list).
    expect(hrefs((p) => isBuiltPath(p) && p !== '/webhooks')).not.toContain('/webhooks');
    expect(hrefs(isBuiltPath)).toContain('/webhooks');
    // /your-bookings was one until issue 15 built it.
    expect(isBuiltPath('/your-bookings')).toBe(true);
    expect(hrefs(isBuiltPath)).toContain('/your-bookings');
    // /messages was one until issue 14 built it.
    expect(hrefs(isBuiltPath)).toContain('/messages');
  });

  it('offers offline learning only in the mobile app', () => {
    const hrefs = () =>
      visibleNav(navSections(wl), { can: () => true, flags, slug: 'x', isBuilt: isBuiltPath }).flatMap((s) =>
        s.items.map((i) => i.href),
      );
    expect(hrefs()).not.toContain('/offline');
    vi.stubEnv('VITE_FORCE_MOBILE', '1');
    try {
      expect(hrefs()).toContain('/offline');
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('knows built, placeholder and unknown addresses', () => {
    expect(isBuiltPath('/users')).toBe(true);
    expect(isBuiltPath('/entities/oakfield-house/roles/')).toBe(true);
    expect(isBuiltPath('/results/pending/historical')).toBe(true);
    expect(isBuiltPath('/webhooks')).toBe(true);
    expect(isBuiltPath('/no/such/page')).toBe(false);
  });

  it('offers the ways in to pending approvals, exemptions, bulk events, presets, schedules and the inspection pack', () => {
    const sections = visibleNav(navSections(wl), {
      can: checker(ROLES.manager ?? []),
      flags,
      slug: 'oakfield-house',
      isBuilt: isBuiltPath,
    });
    const hrefs = sections.flatMap((s) => s.items.map((i) => i.href));
    for (const href of [
      '/results/pending/historical',
      '/results/exempt',
      '/users/bulk-add-events',
      '/users/bulk-add-events-history',
      '/reports/presets',
      '/reports/schedules',
      '/reports/inspection-pack',
    ])
      expect(hrefs).toContain(href);
  });

  it('shows a learner "My pathways" and a manager one "Pathways" entry, both to /pathways', () => {
    const entries = (held: number[]) =>
      visibleNav(navSections(wl), { can: checker(held), flags, slug: 'oakfield-house', isBuilt: isBuiltPath })
        .flatMap((s) => s.items)
        .filter((i) => i.href === '/pathways')
        .map((i) => i.label);
    expect(entries(ROLES.learner ?? [])).toEqual(['My pathways']);
    expect(entries(ROLES.manager ?? [])).toEqual(['Pathways']);
  });

  // Issue 31 §6: a care assistant's menu holds what she does.
  const labels = (held: number[], f: Record<string, unknown> = flags) =>
    visibleNav(navSections(wl), {
      can: checker(held),
      flags: f,
      slug: 'oakfield-house',
      isBuilt: isBuiltPath,
    })
      .flatMap((s) => s.items)
      .map((i) => i.label);

  it('gives a learner one start page, not My events and the learner dashboard side by side', () => {
    const learner = labels(ROLES.learner ?? []);
    expect(learner).toContain('My events');
    expect(learner).not.toContain('Learner dashboard');
    // What the dashboard adds has its own entries.
    expect(learner).toEqual(expect.arrayContaining(['Your bookings', 'My pathways']));
    // Who manages keeps both: their start page shows their organisation's compliance, the dashboard their own.
    const manager = labels(ROLES.manager ?? []);
    expect(manager).toEqual(expect.arrayContaining(['My events', 'Learner dashboard']));
    // Without the new-dashboards feature nobody gets the dashboard entry.
    expect(labels(ROLES.manager ?? [], { ...flags, can_see_new_dashboards: false })).not.toContain(
      'Learner dashboard',
    );
  });

  it('shows Tasks in progress only to who can start a task (reports, matrix, imports, bulk attempts)', () => {
    expect(labels(ROLES.learner ?? [])).not.toContain('Tasks in progress');
    expect(labels(ROLES.manager ?? [])).toContain('Tasks in progress');
    expect(labels([111])).toContain('Tasks in progress');
    expect(labels([99])).toContain('Tasks in progress');
    expect(labels([104, 108, 127])).not.toContain('Tasks in progress');
  });
});

import {
  CareCertificatePerm,
  CompliancePerm,
  LibraryPerm,
  PathwayPerm,
  PRESET_ANY_OF,
  PRESET_PERMISSIONS,
  ReportsPerm,
  ResultsPerm,
  TASK_STARTER_PERMISSIONS,
  type Whitelabel,
} from '@cc/contracts';
import { isMobile } from '../app/env';
import { organisationsWord } from '../whitelabel/words';

/**
 * The side navigation: each item is shown when the user holds its permission ids (spec 2 §6), `any` of them
 * unless mode says all, and when its address opens a built page (router.tsx `isBuiltPath`: a `notBuilt` route is
 * hidden, and shows by itself once it is built). Each item's permissions are those the page's own API asks for, so
 * no entry leads to a 403. Items with a function `to` need the acting-as entity's slug.
 */
export interface NavItem {
  label: string;
  to: string | ((slug: string) => string);
  permissions?: number[];
  mode?: 'all' | 'any';
  /** Hidden from a user holding any of these (a learner's entry to a page whose manager entry sits elsewhere). */
  unless?: number[];
  /** Extra condition on the entity's feature flags. */
  feature?: 'can_see_new_dashboards' | 'can_manage_bookings';
  /** A count shown beside the label (AppShell fetches it). */
  badge?: 'pendingApprovals' | 'unreadMessages';
  /** Platform administration (no permission id grants it): shown to super admins only. */
  superAdminOnly?: boolean;
  /** Also shown to trainers (is_trainer) whatever their permissions and flags: they see their own sessions. */
  orTrainer?: boolean;
  /** Only in the mobile app (the courses saved on the device for offline learning). */
  mobileOnly?: boolean;
}
export interface NavSection {
  title: string;
  items: NavItem[];
}

export function navSections(
  wl: Pick<Whitelabel, 'entityAltName' | 'entitiesAltName' | 'certificateGroupMenuName'>,
): NavSection[] {
  return [
    {
      title: 'Learning',
      items: [
        // The start page (where sign-in and the logo lead): the to-do, policies, courses and training history.
        { label: 'My events', to: '/' },
        // Issue 31 §6: for a learner the learner dashboard repeats My events (the to-do, certificates, history) and
        // what it adds has its own entries below (Your bookings, the certificate, My pathways), so her menu holds one
        // of the two. Someone who manages (40: the compliance widget on /) has a different start page, and keeps the
        // dashboard of their own training beside it.
        {
          label: 'Learner dashboard',
          to: '/learner-dashboard',
          permissions: [104, CompliancePerm.complianceWidget],
          mode: 'all',
          feature: 'can_see_new_dashboards',
        },
        { label: 'Messages', to: '/messages', badge: 'unreadMessages' },
        { label: 'Your bookings', to: '/your-bookings', permissions: [108] },
        // Everyone: a learner sees their own certificate there, managers and assessors their people's too.
        { label: wl.certificateGroupMenuName, to: '/care-certificate' },
        // Everyone's own pathways; people who manage pathways reach the same page from Organisation.
        { label: 'My pathways', to: '/pathways', unless: [...PathwayPerm.view] },
        // The long jobs they started (e-mailed reports, exports, imports, bulk attempts): only for who can start one.
        { label: 'Tasks in progress', to: '/tasks-in-progress', permissions: [...TASK_STARTER_PERMISSIONS] },
        // The mobile app's courses saved on the device, taken without a connection and synced after (issue 19).
        { label: 'Offline learning', to: '/offline', mobileOnly: true },
      ],
    },
    {
      // The white-label's name for the certificate heads its own group (issue 16).
      title: wl.certificateGroupMenuName,
      items: [
        {
          label: 'Historical certificates',
          to: '/care-certificate/historical',
          permissions: [CareCertificatePerm.historical],
        },
        { label: 'Standards', to: '/care-certificate/standards', superAdminOnly: true },
        { label: 'Settings', to: '/care-certificate/settings', permissions: [CareCertificatePerm.assign] },
      ],
    },
    {
      title: 'Management',
      items: [
        { label: 'Management dashboard', to: '/management-dashboard', permissions: [79] },
        { label: 'Manager dashboard', to: '/manager-dashboard', permissions: [105] },
        { label: 'Active users', to: '/active-users', permissions: [67] },
        {
          label: 'Manage bookings',
          to: '/manage-bookings',
          // contracts bookings.ts: can_manage_bookings with 9/11/109/128, or a trainer (their own sessions).
          permissions: [9, 11, 109, 128],
          feature: 'can_manage_bookings',
          orTrainer: true,
        },
      ],
    },
    {
      title: 'Organisation',
      items: [
        // GET /users asks for 21; the page's role and type filters are offered only with 49/98 and 50.
        { label: 'Users', to: '/users', permissions: [21] },
        // Issue 18: every call of the page asks for 3 (add user).
        { label: 'Sign-up links', to: '/users/signup-links', permissions: [3] },
        { label: organisationsWord(wl), to: '/entities', permissions: [22] },
        { label: 'Job roles', to: (slug) => `/entities/${slug}/roles/`, permissions: [49, 98] },
        { label: 'User types', to: (slug) => `/entities/${slug}/types`, permissions: [50] },
        // GET /entities/{slug}/permissions asks for 78 (70 alone only lets a user save, not read).
        { label: 'Permissions', to: (slug) => `/entities/${slug}/permissions/`, permissions: [78] },
        { label: 'Branding', to: (slug) => `/entities/${slug}/branding`, permissions: [20] },
        {
          label: 'Password rules',
          to: (slug) => `/entities/${slug}/password-requirements`,
          permissions: [2],
        },
        // GET /pathways asks for any of PathwayPerm.view; the page shows the caller's own pathways first.
        { label: 'Pathways', to: '/pathways', permissions: [...PathwayPerm.view] },
      ],
    },
    {
      title: 'Training records',
      items: [
        {
          label: 'Pending approvals',
          to: '/results/pending/historical',
          permissions: [ResultsPerm.searchTrainingRecords, ResultsPerm.updateRecord],
          badge: 'pendingApprovals',
        },
        { label: 'Exemptions', to: '/results/exempt', permissions: [ResultsPerm.searchTrainingRecords] },
        { label: 'Bulk add events', to: '/users/bulk-add-events', permissions: [ResultsPerm.addUserEvents] },
        {
          label: 'Bulk add history',
          to: '/users/bulk-add-events-history',
          permissions: [ResultsPerm.addUserEvents, ResultsPerm.deleteUserEvents],
        },
      ],
    },
    {
      title: 'Reports',
      items: [
        { label: 'Compliance matrix', to: '/reports/matrix', permissions: [ReportsPerm.matrixReport] },
        {
          label: 'Compliance report',
          to: '/reports/compliance',
          permissions: [ReportsPerm.complianceReport],
        },
        // POST /reports/certificate asks for 7, POST /reports/role for 13.
        {
          label: 'Certificate report',
          to: '/reports/certificate',
          permissions: [ReportsPerm.userCertificates],
        },
        { label: 'Role report', to: '/reports/role', permissions: [ReportsPerm.complianceReport] },
        // Issue 33 §6: each home's inspection pack, without going through the home's page.
        {
          label: 'Inspection pack',
          to: '/reports/inspection-pack',
          permissions: [ReportsPerm.complianceReport],
        },
        // Issue 37 §1: the ASC-WDS bulk upload training file, per home.
        {
          label: 'ASC-WDS export',
          to: '/reports/asc-wds',
          permissions: [ReportsPerm.complianceReport, ReportsPerm.complianceExcel],
          mode: 'all',
        },
        {
          label: `${wl.certificateGroupMenuName} report`,
          to: '/reports/care-certificate',
          permissions: [CareCertificatePerm.report],
        },
        { label: 'Report presets', to: '/reports/presets', permissions: [...PRESET_ANY_OF] },
        { label: 'Report schedules', to: '/reports/schedules', permissions: [PRESET_PERMISSIONS.schedules] },
      ],
    },
    {
      title: 'Content',
      items: [
        { label: 'Content creator', to: '/content-creator', permissions: [63] },
        { label: 'Content designer', to: '/content-designer', permissions: [29, 63] },
        { label: 'Libraries', to: '/libraries', permissions: [LibraryPerm.view] },
      ],
    },
    {
      title: 'System',
      items: [
        { label: 'Search', to: '/system/search', permissions: [24] },
        { label: 'Importer logs', to: '/importer/logs', permissions: [99] },
        // Holders of 101 manage their own tokens there; 103 also sees everyone's (tokens/TokensPage.tsx).
        { label: 'Access tokens', to: '/personal-access-tokens', permissions: [101, 103] },
        { label: 'Webhooks', to: '/webhooks', permissions: [112] },
        { label: 'Help articles', to: '/help-articles', superAdminOnly: true },
      ],
    },
  ];
}

export interface NavContext {
  can: (ids: number[], mode?: 'all' | 'any') => boolean;
  /** The entity's feature flags (acting-as entity over the user's own). */
  flags: Record<string, unknown>;
  /** The slug of the entity in view, for items with a function `to`. */
  slug: string;
  /** router.tsx `isBuiltPath`: false for a placeholder (`notBuilt`) or an unknown address. */
  isBuilt: (path: string) => boolean;
  /** The signed-in user is a super admin (items marked superAdminOnly). */
  superAdmin?: boolean;
  /** The signed-in user is a trainer (items marked orTrainer). */
  trainer?: boolean;
}
export interface VisibleNavItem extends NavItem {
  href: string;
}
export interface VisibleNavSection {
  title: string;
  items: VisibleNavItem[];
}

export function hrefOf(item: NavItem, slug: string): string {
  return typeof item.to === 'function' ? item.to(slug) : item.to;
}

/** What the side navigation shows: permitted, feature-enabled, built entries; empty sections dropped. */
export function visibleNav(sections: NavSection[], ctx: NavContext): VisibleNavSection[] {
  return sections
    .map((section) => ({
      title: section.title,
      items: section.items
        .filter((item) => !item.superAdminOnly || ctx.superAdmin === true)
        .filter((item) => !item.mobileOnly || isMobile())
        .filter((item) => !item.unless || !ctx.can(item.unless, 'any'))
        .filter(
          (item) =>
            (item.orTrainer && ctx.trainer === true) ||
            ((!item.permissions || ctx.can(item.permissions, item.mode ?? 'any')) &&
              (!item.feature || ctx.flags[item.feature] !== false)),
        )
        .map((item) => ({ ...item, href: hrefOf(item, ctx.slug) }))
        .filter(
          (item) => (typeof item.to === 'function' ? Boolean(ctx.slug) : true) && ctx.isBuilt(item.href),
        ),
    }))
    .filter((section) => section.items.length > 0);
}

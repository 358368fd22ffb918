import type { Whitelabel } from '@cc/contracts';

/**
 * The side navigation: each item is shown when the user holds its permission ids (spec 2 §6), `any` of them
 * unless mode says all. `entityPath` items need the acting-as entity's slug.
 */
export interface NavItem {
  label: string;
  to: string | ((slug: string) => string);
  permissions?: number[];
  mode?: 'all' | 'any';
  /** Extra condition on the entity's feature flags. */
  feature?: 'can_see_new_dashboards' | 'can_manage_bookings';
}
export interface NavSection {
  title: string;
  items: NavItem[];
}

export function navSections(
  wl: Pick<Whitelabel, 'entitiesAltName' | 'certificateGroupMenuName'>,
): NavSection[] {
  return [
    {
      title: 'Learning',
      items: [
        { label: 'My events', to: '/' },
        {
          label: 'Learner dashboard',
          to: '/learner-dashboard',
          permissions: [104],
          feature: 'can_see_new_dashboards',
        },
        { label: 'Messages', to: '/messages' },
        { label: 'Your bookings', to: '/your-bookings', permissions: [108] },
        { label: wl.certificateGroupMenuName, to: '/care-certificate', permissions: [86, 87, 88, 93] },
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
          permissions: [9, 11],
          feature: 'can_manage_bookings',
        },
      ],
    },
    {
      title: 'Organisation',
      items: [
        { label: 'Users', to: '/users', permissions: [21] },
        { label: wl.entitiesAltName, to: '/entities', permissions: [22] },
        { label: 'Job roles', to: (slug) => `/entities/${slug}/roles/`, permissions: [49, 98] },
        { label: 'User types', to: (slug) => `/entities/${slug}/types`, permissions: [50] },
        { label: 'Permissions', to: (slug) => `/entities/${slug}/permissions/`, permissions: [78, 70] },
        { label: 'Branding', to: (slug) => `/entities/${slug}/branding`, permissions: [20] },
        {
          label: 'Password rules',
          to: (slug) => `/entities/${slug}/password-requirements`,
          permissions: [2],
        },
        { label: 'Pathways', to: '/pathways', permissions: [24, 26] },
      ],
    },
    {
      title: 'Reports',
      items: [
        { label: 'Compliance matrix', to: '/reports/matrix', permissions: [12] },
        { label: 'Compliance report', to: '/reports/compliance', permissions: [13] },
        { label: 'Certificate report', to: '/reports/certificate', permissions: [12, 13] },
        { label: 'Role report', to: '/reports/role', permissions: [12, 13] },
      ],
    },
    {
      title: 'Content',
      items: [
        { label: 'Content creator', to: '/content-creator', permissions: [63] },
        { label: 'Libraries', to: '/libraries', permissions: [63] },
      ],
    },
    {
      title: 'System',
      items: [
        { label: 'Search', to: '/system/search', permissions: [24] },
        { label: 'Importer logs', to: '/importer/logs', permissions: [99] },
        { label: 'Access tokens', to: '/personal-access-tokens', permissions: [103] },
        { label: 'Webhooks', to: '/webhooks', permissions: [112] },
      ],
    },
  ];
}

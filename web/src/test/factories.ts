import type { AuthUser } from '@cc/contracts';

/** A learner of a level B home in a level A organisation; override what a test needs. */
export function makeUser(overrides: Partial<AuthUser> = {}): AuthUser {
  return {
    id: 7,
    uuid: 'u-7',
    name: 'Sam Carer',
    email: 'sam@example.test',
    emailVerified: true,
    super_admin: false,
    is_trainer: false,
    primary_entity: { id: 2, slug: 'oakfield', name: 'Oakfield House', level: 'B' },
    a_entity: {
      id: 1,
      slug: 'meadowbrook',
      name: 'Meadowbrook Care Group',
      can_view_internal_bookings: true,
      can_view_external_bookings: true,
      can_manage_bookings: false,
      can_see_new_dashboards: true,
    },
    user_preferences: {},
    role: { id: 3, name: 'Care Assistant' },
    type: { id: 4, name: 'Learner' },
    permissions: [{ id: 104, slug: 'learner-dashboard' }],
    password_change_required: false,
    ...overrides,
  };
}

import type { EntityDto } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { emptyEntityForm, entityToForm, toEntityBody } from './entity-form';

const entity = {
  id: 3,
  uuid: 'x',
  slug: 'riverside-lodge',
  name: 'Riverside Lodge',
  level: 'B',
  parent_id: 1,
  is_training_company: false,
  parent: { id: 1, slug: 'meadowbrook', name: 'Meadowbrook' },
  subdomain: null,
  email: null,
  code: 'RL1',
  telephone: '01904 000',
  website: null,
  notes: null,
  address: '3 River Walk',
  events_reminder: true,
  allow_ms_sign_in: false,
  allow_google_sign_in: true,
  notify_all_standards_selected: false,
  require_training_record_evidence: false,
  expiry_warning: 30,
  starter_period: 90,
  new_requirement_days: 30,
  pat_max_days: 365,
  has_restricted_access_password: true,
  restricted_access_at: null,
  restricted_access_message: null,
  password_expire_period_in_months: null,
  password_requirements: null,
  compromised_passwords: 'off',
  always_show_popup_on_login: false,
  popup_link: null,
  login_popup_alt_name: null,
  quiet_hours_start: null,
  quiet_hours_end: null,
  focused_courses: [],
  can_view_internal_bookings: true,
  can_view_external_bookings: false,
  can_manage_bookings: false,
  can_see_new_dashboards: true,
  training_company_status: null,
  created_at: '',
  updated_at: '',
  courses: [{ id: 3, title: 'Fire safety' }],
  score: 80,
} satisfies EntityDto;

describe('entity form mapping', () => {
  it('round-trips an entity into an update body (blank texts become null, numbers numbers)', () => {
    const form = entityToForm(entity);
    expect(form.restricted_access_password).toBe('');
    const result = toEntityBody({ ...form, expiry_warning: '45', email: '  ' }, 'update');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.body).toMatchObject({
      name: 'Riverside Lodge',
      slug: 'riverside-lodge',
      parent_id: 1,
      expiry_warning: 45,
      email: null,
      code: 'RL1',
      allow_google_sign_in: true,
      can_see_new_dashboards: true,
    });
    // A blank password keeps the stored one; the level is not sent on update.
    expect('restricted_access_password' in result.body).toBe(false);
    expect('level' in result.body).toBe(false);
  });

  it('validates with the contract and names the field', () => {
    const bad = toEntityBody({ ...entityToForm(entity), email: 'nope', expiry_warning: '-1' }, 'update');
    expect(bad.ok).toBe(false);
    if (bad.ok) return;
    expect(bad.errors.email?.[0]).toMatch(/valid email/);
    expect(bad.errors.expiry_warning).toBeDefined();
  });

  it('on create needs a name, a level and (for level B) a parent', () => {
    const empty = toEntityBody(emptyEntityForm(), 'create');
    expect(empty.ok).toBe(false);
    if (!empty.ok) expect(empty.errors.parent_id).toBeDefined();
    const noName = toEntityBody({ ...emptyEntityForm(), level: 'A' }, 'create');
    expect(noName.ok).toBe(false);
    if (!noName.ok) expect(noName.errors.name).toEqual(['The name field is required.']);
    const ok = toEntityBody({ ...emptyEntityForm(), name: 'New Home', parent_id: '1' }, 'create');
    expect(ok.ok && ok.body).toMatchObject({ name: 'New Home', level: 'B', parent_id: 1 });
  });

  it('leaves out fields the caller may not see', () => {
    const result = toEntityBody(entityToForm(entity), 'update', ['notes']);
    expect(result.ok && 'notes' in result.body).toBe(false);
  });
});

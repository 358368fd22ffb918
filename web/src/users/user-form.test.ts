import type { UserDetail } from '@cc/contracts';
import { describe, expect, it } from 'vitest';
import { filtersFromParams, paramsFromFilters } from './UsersPage';
import { emptyUserForm, toCreateUserBody, toUpdateUserBody, userToForm } from './user-form';

const user: UserDetail = {
  id: 9,
  uuid: 'u-9',
  name: 'Robin',
  email: 'robin@example.test',
  is_trainer: false,
  start_date: '2024-01-02',
  primary_entity: { id: 2, slug: 'oakfield-house', name: 'Oakfield House', level: 'B' },
  a_entity: { id: 1, slug: 'meadowbrook', name: 'Meadowbrook' },
  role: { id: 3, name: 'Care Assistant' },
  type: { id: 4, name: 'Learner' },
  super_admin: false,
  email_verified: true,
  pending_email: null,
  last_login_at: null,
  created_at: '2024-01-01T00:00:00Z',
};

describe('create body', () => {
  it('defaults to a welcome e-mail and no password', () => {
    const result = toCreateUserBody({
      ...emptyUserForm(2),
      name: 'Robin',
      email: 'Robin@Example.test',
      role_id: '3',
    });
    expect(result).toEqual({
      ok: true,
      body: {
        name: 'Robin',
        email: 'robin@example.test',
        primary_entity_id: 2,
        role_id: 3,
        type_id: null,
        is_trainer: false,
        start_date: null,
        send_welcome_email: true,
      },
    });
  });

  it('needs a password when no welcome e-mail is sent, and checks the e-mail', () => {
    const noPassword = toCreateUserBody({
      ...emptyUserForm(2),
      name: 'R',
      email: 'r@example.test',
      send_welcome_email: false,
    });
    expect(noPassword.ok ? null : noPassword.errors.password).toBeTruthy();
    const withPassword = toCreateUserBody({
      ...emptyUserForm(2),
      name: 'R',
      email: 'r@example.test',
      send_welcome_email: false,
      password: 'Secret-123',
    });
    expect(withPassword.ok && withPassword.body.password).toBe('Secret-123');
    const badEmail = toCreateUserBody({ ...emptyUserForm(2), name: 'R', email: 'nope' });
    expect(badEmail.ok ? null : badEmail.errors.email).toEqual(['The email must be a valid email address.']);
  });
});

describe('update body', () => {
  it('sends only what changed (each change needs its own permission on the server)', () => {
    const original = userToForm(user);
    expect(toUpdateUserBody(original, original)).toEqual({ ok: true, body: {} });
    expect(toUpdateUserBody({ ...original, type_id: '', start_date: '2024-02-03' }, original)).toEqual({
      ok: true,
      body: { type_id: null, start_date: '2024-02-03' },
    });
  });
});

describe('users list filters in the address', () => {
  it('round-trip, ignoring junk; deep is on unless turned off', () => {
    const f = filtersFromParams(
      new URLSearchParams('page=2&search=ann&is_trainer=1&type_id=4&role_id=x&deep=0'),
    );
    expect(f).toEqual({ page: 2, search: 'ann', is_trainer: '1', type_id: '4', role_id: '', deep: false });
    expect(paramsFromFilters(f).toString()).toBe('page=2&search=ann&is_trainer=1&type_id=4&deep=0');
    expect(filtersFromParams(new URLSearchParams('')).deep).toBe(true);
  });
});

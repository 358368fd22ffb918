import { Messages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, TEST_PASSWORD } from '../../test/factories';
import { createHarness, type Harness, type TestApp, webLogin } from '../../test/harness';
import { gatedApp } from './flows-test-support';
import { passwordGateAllows } from './password-gate';
import { hashPassword } from './passwords';

let h: Harness;
let app: TestApp;
beforeAll(async () => {
  h = await createHarness();
  app = await gatedApp(h);
});
afterAll(async () => {
  await app?.close();
  await h?.close();
});

const NEW_PASSWORD = 'Quiet-Meadow-Compass-9';
const monthsAgo = (n: number) => {
  const d = new Date();
  d.setMonth(d.getMonth() - n);
  return d;
};

describe('password gate (spec 2 §3 expiry and enforce_change)', () => {
  it('holds an expired password: Auth user says so, other API calls answer 403 until update-password', async () => {
    const entity = await buildEntity(h.db, { settings: { password_expire_period_in_months: 3 } });
    const user = await buildUser(h.db, { entityId: entity.id }); // no permission 44: the required change allows it
    await h.db
      .updateTable('users')
      .set({ password_changed_at: monthsAgo(4) })
      .where('id', '=', user.id)
      .execute();
    const web = await webLogin(app, user.email, TEST_PASSWORD);
    expect(web.login.statusCode).toBe(200);
    expect(web.login.json().data.password_change_required).toBe(true);
    const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
      app.inject({ method, url, cookies: web.cookies(), headers: web.headers(), payload });

    const held = await call('GET', '/api/probe');
    expect(held.statusCode).toBe(403);
    expect(held.json().message).toBe('Your password must be changed before you continue.');
    expect(held.json().message).toBe(Messages.passwordChangeRequired);
    expect(
      (await call('POST', '/api/auth/update-email', { email: 'x@y.test', password: 'p' })).statusCode,
    ).toBe(403);
    for (const url of ['/api/auth/user', '/api/auth/permissions', '/api/version', '/api/time', '/api/check'])
      expect((await call('GET', url)).statusCode, url).toBe(200);

    const changed = await call('POST', '/api/auth/update-password', {
      current_password: TEST_PASSWORD,
      password: NEW_PASSWORD,
      password_confirmation: NEW_PASSWORD,
    });
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', '/api/auth/user')).json().data.password_change_required).toBe(false);
    expect((await call('GET', '/api/probe')).statusCode).toBe(200);
  });

  it('holds a breached password at an enforce_change entity, for bearer tokens too', async () => {
    const entity = await buildEntity(h.db, { settings: { compromised_passwords: 'enforce_change' } });
    const user = await buildUser(h.db, { entityId: entity.id });
    await h.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('Password123') })
      .where('id', '=', user.id)
      .execute();
    const login = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: user.email, password: 'Password123', device_name: 'phone' },
    });
    expect(login.json().data.user.password_change_required).toBe(true);
    const headers = { authorization: `Bearer ${login.json().data.token}` };
    expect((await app.inject({ method: 'GET', url: '/api/probe', headers })).statusCode).toBe(403);
    // Logging out is always possible.
    expect((await app.inject({ method: 'POST', url: '/api/auth/logout', headers })).statusCode).toBe(200);
  });

  it('lets everyone else through', async () => {
    const user = await buildUser(h.db);
    const res = await app.inject({ method: 'GET', url: '/api/probe', headers: await bearer(h.db, user.id) });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toBe('reached');
  });

  it('gates only API routes', () => {
    expect(passwordGateAllows('GET', '/api/users')).toBe(false);
    expect(passwordGateAllows('POST', '/graphql')).toBe(false);
    expect(passwordGateAllows('GET', '/api/whitelabel/:slug')).toBe(true);
    expect(passwordGateAllows('POST', '/logout')).toBe(true);
    expect(passwordGateAllows('GET', undefined)).toBe(true);
  });
});

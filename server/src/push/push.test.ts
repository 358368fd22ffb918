import { PushMessages } from '@cc/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildEntity, buildUser, clientFor } from '../../test/factories';
import { createHarness, type Harness } from '../../test/harness';
import { describeRaces, parallel } from '../../test/parallel';

/** The caller's phones for push notifications (issue 19): REST and GraphQL, ownership, logout, races. */
let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

const as = (userId: number) => clientFor(h.app, h.db, userId);
let n = 0;
const phone = (platform: 'android' | 'ios' = 'android') => ({
  token: `token-${Date.now()}-${++n}`,
  platform,
  device_name: `Phone ${n}`,
});
const rowsOf = (token: string) =>
  h.db.selectFrom('push_devices').selectAll().where('token', '=', token).execute();

describe('POST /api/push-devices', () => {
  it('401 without a caller; 422 with the field errors', async () => {
    expect(
      (await h.app.inject({ method: 'POST', url: '/api/push-devices', payload: phone() })).statusCode,
    ).toBe(401);
    const call = await as((await buildUser(h.db)).id);
    const bad = await call('POST', '/api/push-devices', { token: ' ', platform: 'windows' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toMatchObject({
      token: ['The push token is required.'],
      platform: ['The platform must be android or ios.'],
      device_name: ['The device name is required.'],
    });
  });

  it('registers the phone once however often it registers, and a token moves to a new user', async () => {
    const me = await buildUser(h.db);
    const colleague = await buildUser(h.db);
    const body = phone('ios');
    const first = await (await as(me.id))('POST', '/api/push-devices', body);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      message: PushMessages.registered,
      data: { platform: 'ios', device_name: body.device_name, current: true },
    });
    expect(first.json().data).not.toHaveProperty('token');
    await (await as(me.id))('POST', '/api/push-devices', { ...body, device_name: 'Renamed' });
    expect(await rowsOf(body.token)).toMatchObject([{ user_id: me.id, device_name: 'Renamed' }]);

    await (await as(colleague.id))('POST', '/api/push-devices', body);
    expect(await rowsOf(body.token)).toMatchObject([{ user_id: colleague.id }]);
    expect((await (await as(me.id))('GET', '/api/push-devices')).json().data).toEqual([]);
  });
});

describe('GET and DELETE /api/push-devices', () => {
  it("lists only the caller's phones; another user's (another organisation's) is 404 and stays", async () => {
    expect((await h.app.inject({ method: 'GET', url: '/api/push-devices' })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'DELETE', url: '/api/push-devices/1' })).statusCode).toBe(401);
    const me = await buildUser(h.db);
    const stranger = await buildUser(h.db, { entityId: (await buildEntity(h.db)).id });
    const mine = (await (await as(me.id))('POST', '/api/push-devices', phone())).json().data;
    const theirs = (await (await as(stranger.id))('POST', '/api/push-devices', phone())).json().data;

    const list = (await (await as(me.id))('GET', '/api/push-devices')).json().data;
    expect(list.map((d: { id: number }) => d.id)).toEqual([mine.id]);
    expect(list[0].current).toBe(false);

    const call = await as(me.id);
    expect((await call('DELETE', '/api/push-devices/abc')).statusCode).toBe(422);
    expect((await call('DELETE', `/api/push-devices/${theirs.id}`)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/push-devices/999999999')).statusCode).toBe(404);
    expect(
      await h.db.selectFrom('push_devices').select('id').where('id', '=', theirs.id).execute(),
    ).toHaveLength(1);

    const removed = await call('DELETE', `/api/push-devices/${mine.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json().message).toBe(PushMessages.removed);
    expect((await call('GET', '/api/push-devices')).json().data).toEqual([]);
  });

  it("logging the phone's token out removes its registration; other phones stay", async () => {
    const me = await buildUser(h.db);
    const phoneHeaders = await bearer(h.db, me.id);
    const other = phone();
    const mine = phone();
    await (await as(me.id))('POST', '/api/push-devices', other);
    const registered = await h.app.inject({
      method: 'POST',
      url: '/api/push-devices',
      headers: phoneHeaders,
      payload: mine,
    });
    expect(registered.json().data.current).toBe(true);
    const logout = await h.app.inject({ method: 'POST', url: '/api/auth/logout', headers: phoneHeaders });
    expect(logout.statusCode).toBeLessThan(300);
    expect(await rowsOf(mine.token)).toEqual([]);
    expect(await rowsOf(other.token)).toHaveLength(1);
  });
});

describe('GraphQL pushDevices, registerPushDevice, removePushDevice', () => {
  it('registers, lists and removes like REST, with the same 422 and 404', async () => {
    const me = await buildUser(h.db);
    const headers = await bearer(h.db, me.id);
    const gql = async (query: string, variables: Record<string, unknown> = {}) =>
      (
        await h.app.inject({ method: 'POST', url: '/api/graphql', headers, payload: { query, variables } })
      ).json();
    const body = phone();
    const made = await gql(
      'mutation($t: String!, $p: String!, $d: String!) { registerPushDevice(token: $t, platform: $p, device_name: $d) { id platform device_name current } }',
      { t: body.token, p: body.platform, d: body.device_name },
    );
    const device = made.data.registerPushDevice;
    expect(device).toMatchObject({ platform: 'android', device_name: body.device_name, current: true });
    expect((await gql('{ pushDevices { id } }')).data.pushDevices).toEqual([{ id: device.id }]);

    const bad = await gql(
      'mutation { registerPushDevice(token: "x", platform: "nokia", device_name: "N") { id } }',
    );
    expect(Object.keys(bad.errors[0].extensions.validation)).toEqual(['platform']);
    const stranger = await buildUser(h.db);
    const theirs = (await (await as(stranger.id))('POST', '/api/push-devices', phone())).json().data;
    const notMine = await gql(`mutation { removePushDevice(id: ${theirs.id}) }`);
    expect(notMine.errors[0].extensions.code).toBe('NOT_FOUND');
    expect((await gql(`mutation { removePushDevice(id: ${device.id}) }`)).data.removePushDevice).toBe(true);
    expect((await gql('{ pushDevices { id } }')).data.pushDevices).toEqual([]);
  });
});

describeRaces('push device registration in parallel', () => {
  it('one token registered at once by several users and calls leaves one row, one owner', async () => {
    const users = await Promise.all([1, 2, 3, 4].map(() => buildUser(h.db)));
    const clients = await Promise.all(users.map((u) => as(u.id)));
    const body = phone();
    const answers = await parallel(12, (i) =>
      (clients[i % 4] as (typeof clients)[number])('POST', '/api/push-devices', body),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(201));
    const rows = await rowsOf(body.token);
    expect(rows).toHaveLength(1);
    expect(users.map((u) => u.id)).toContain(rows[0]?.user_id);
  });
});

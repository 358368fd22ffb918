import { Capacitor } from '@capacitor/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Push in the shell (issue 19), with the plugin replaced by a stand-in that behaves like the native one: the
 * permission asked, the token sent to the server with this phone's name, a tap opening its app path (and nothing
 * else), and logout removing this phone's registration.
 */
const api = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), delete: vi.fn() }));
const navigateTo = vi.hoisted(() => vi.fn());
const plugin = vi.hoisted(() => {
  const handlers = new Map<string, (event: unknown) => void>();
  return {
    handlers,
    permission: 'prompt' as string,
    checkPermissions: vi.fn(),
    requestPermissions: vi.fn(),
    register: vi.fn(),
    addListener: vi.fn(),
  };
});
vi.mock('../app/api', () => ({ api }));
vi.mock('../app/navigation', () => ({ navigateTo }));
vi.mock('@capacitor/device', () => ({
  Device: { getInfo: async () => ({ manufacturer: 'Google', model: 'Pixel 8' }) },
}));
vi.mock('@capacitor/push-notifications', () => ({ PushNotifications: plugin }));

beforeEach(() => {
  vi.resetModules();
  for (const f of [api.get, api.post, api.delete, navigateTo]) f.mockReset();
  for (const f of [plugin.checkPermissions, plugin.requestPermissions, plugin.register, plugin.addListener])
    f.mockReset();
  plugin.handlers.clear();
  plugin.permission = 'prompt';
  plugin.checkPermissions.mockImplementation(async () => ({ receive: plugin.permission }));
  plugin.requestPermissions.mockImplementation(async () => ({ receive: 'granted' }));
  plugin.register.mockResolvedValue(undefined);
  plugin.addListener.mockImplementation(async (name: string, fn: (event: unknown) => void) => {
    plugin.handlers.set(name, fn);
    return { remove: async () => plugin.handlers.delete(name) };
  });
  vi.spyOn(Capacitor, 'isNativePlatform').mockReturnValue(true);
  vi.spyOn(Capacitor, 'isPluginAvailable').mockReturnValue(true);
  vi.spyOn(Capacitor, 'getPlatform').mockReturnValue('android');
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('startPush in the shell', () => {
  it('asks permission, registers, and sends the token with the phone name', async () => {
    api.post.mockResolvedValue({ data: { data: { id: 41 } } });
    const { startPush } = await import('./push');
    await startPush();
    expect(plugin.requestPermissions).toHaveBeenCalledOnce();
    expect(plugin.register).toHaveBeenCalledOnce();
    plugin.handlers.get('registration')?.({ value: 'fcm-token-1' });
    await flush();
    expect(api.post).toHaveBeenCalledWith(
      '/push-devices',
      { token: 'fcm-token-1', platform: 'android', device_name: 'Google Pixel 8' },
      { skipAuthHandling: true, actingAs: false },
    );
    // A second start (another carer signed in on a shared tablet) registers again, so the token is sent for them,
    // without listening twice.
    const listening = plugin.addListener.mock.calls.length;
    await startPush();
    expect(plugin.register).toHaveBeenCalledTimes(2);
    expect(plugin.addListener.mock.calls.length).toBe(listening);
  });

  it('a tap opens the app path of the notification, and never another site', async () => {
    const { startPush } = await import('./push');
    await startPush();
    const tap = plugin.handlers.get('pushNotificationActionPerformed');
    tap?.({ notification: { data: { link: '/learner-dashboard' } } });
    tap?.({ notification: { data: { link: '//evil.example/x' } } });
    tap?.({ notification: { data: { link: 'https://evil.example/' } } });
    tap?.({ notification: { data: {} } });
    expect(navigateTo.mock.calls).toEqual([['/learner-dashboard']]);
  });

  it('a refused permission registers nothing', async () => {
    plugin.permission = 'denied';
    const { startPush } = await import('./push');
    await startPush();
    expect(plugin.register).not.toHaveBeenCalled();
    expect(api.post).not.toHaveBeenCalled();
  });
});

describe('stopPush at logout', () => {
  it('removes the registration this run made, and stops listening', async () => {
    api.post.mockResolvedValue({ data: { data: { id: 41 } } });
    const { startPush, stopPush } = await import('./push');
    await startPush();
    plugin.handlers.get('registration')?.({ value: 'fcm-token-1' });
    await flush();
    await stopPush();
    expect(api.delete).toHaveBeenCalledWith('/push-devices/41', { skipAuthHandling: true, actingAs: false });
    expect(plugin.handlers.size).toBe(0);
  });

  it("after a restart, finds this login's registration on the server", async () => {
    api.get.mockResolvedValue({
      data: {
        data: [
          { id: 7, current: false },
          { id: 9, current: true },
        ],
      },
    });
    const { stopPush } = await import('./push');
    await stopPush();
    expect(api.delete).toHaveBeenCalledWith('/push-devices/9', { skipAuthHandling: true, actingAs: false });
  });
});

import { Capacitor } from '@capacitor/core';
import { beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * Push outside the shell, with the plugin's real web implementation (issue 19): in a browser there is no push
 * registration to make, so startPush and stopPush do nothing and never throw, and no token reaches the server.
 */
const api = vi.hoisted(() => ({ get: vi.fn(), post: vi.fn(), delete: vi.fn() }));
vi.mock('../app/api', () => ({ api }));

beforeEach(() => {
  vi.resetModules();
  api.get.mockReset();
  api.post.mockReset();
  api.delete.mockReset();
});

describe('startPush and stopPush outside the shell', () => {
  it('do nothing in a browser', async () => {
    const { startPush, stopPush } = await import('./push');
    await expect(startPush()).resolves.toBeUndefined();
    await expect(stopPush()).resolves.toBeUndefined();
    expect(api.post).not.toHaveBeenCalled();
    expect(api.delete).not.toHaveBeenCalled();
  });

  it("degrade quietly when the plugin's web implementation is reached (it has none)", async () => {
    vi.spyOn(Capacitor, 'isNativePlatform').mockReturnValue(true);
    vi.spyOn(Capacitor, 'isPluginAvailable').mockReturnValue(true);
    const { PushNotifications } = await import('@capacitor/push-notifications');
    await expect(PushNotifications.checkPermissions()).rejects.toBeTruthy();
    const { startPush, stopPush } = await import('./push');
    await expect(startPush()).resolves.toBeUndefined();
    api.get.mockRejectedValue(new Error('offline'));
    await expect(stopPush()).resolves.toBeUndefined();
    expect(api.post).not.toHaveBeenCalled();
  });
});

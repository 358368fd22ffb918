import { Capacitor } from '@capacitor/core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { deviceReady, isNativeShell } from './platform';

afterEach(() => vi.useRealTimers());

describe('platform (issue 19)', () => {
  it('outside the shell: not native, ready at once', async () => {
    expect(isNativeShell()).toBe(false);
    await expect(deviceReady()).resolves.toBeUndefined();
  });

  it("in the shell: ready when the bridge answers 'deviceready', not before", async () => {
    vi.spyOn(Capacitor, 'isNativePlatform').mockReturnValue(true);
    let ready = false;
    const waiting = deviceReady().then(() => {
      ready = true;
    });
    await Promise.resolve();
    expect(ready).toBe(false);
    document.dispatchEvent(new Event('deviceready'));
    await waiting;
    expect(ready).toBe(true);
  });

  it('in the shell: a bridge that never answers does not hold the start-up for ever', async () => {
    vi.useFakeTimers();
    vi.spyOn(Capacitor, 'isNativePlatform').mockReturnValue(true);
    const waiting = deviceReady();
    await vi.advanceTimersByTimeAsync(5000);
    await expect(waiting).resolves.toBeUndefined();
  });
});

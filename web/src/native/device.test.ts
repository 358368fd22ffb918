import { afterEach, describe, expect, it } from 'vitest';
import { deviceName } from '../app/env';
import { deviceNameFromInfo, loadDeviceName, nativeDeviceName, resetDeviceName } from './device';

const IPHONE_UA =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148';

describe('device name', () => {
  afterEach(() => resetDeviceName());

  it('is "manufacturer model", without naming the maker twice', () => {
    expect(deviceNameFromInfo({ manufacturer: 'Google', model: 'Pixel 8' })).toBe('Google Pixel 8');
    expect(deviceNameFromInfo({ manufacturer: 'Apple', model: 'iPhone15,2' })).toBe('Apple iPhone15,2');
    expect(deviceNameFromInfo({ manufacturer: 'samsung', model: 'Samsung Galaxy Tab' })).toBe(
      'Samsung Galaxy Tab',
    );
    expect(deviceNameFromInfo({ manufacturer: '', model: 'SM-T220' })).toBe('SM-T220');
    expect(deviceNameFromInfo({ manufacturer: ' ', model: '' })).toBeNull();
    expect(deviceNameFromInfo({ manufacturer: 'X', model: 'y'.repeat(400) })).toHaveLength(255);
  });

  it("in the shell login's device_name is the device's maker and model", async () => {
    expect(await loadDeviceName(async () => ({ manufacturer: 'Google', model: 'Pixel 8' }), true)).toBe(
      'Google Pixel 8',
    );
    expect(deviceName()).toBe('Google Pixel 8');
  });

  it('in a browser the user-agent guess stays, and the plugin is not asked', async () => {
    let asked = false;
    const info = async () => {
      asked = true;
      return { manufacturer: 'Google', model: 'Pixel 8' };
    };
    expect(await loadDeviceName(info, false)).toBeNull();
    expect(asked).toBe(false);
    const ua = Object.getOwnPropertyDescriptor(window.navigator, 'userAgent');
    Object.defineProperty(window.navigator, 'userAgent', { value: IPHONE_UA, configurable: true });
    try {
      expect(deviceName()).toBe('Apple iPhone');
    } finally {
      if (ua) Object.defineProperty(window.navigator, 'userAgent', ua);
      else delete (window.navigator as { userAgent?: string }).userAgent;
    }
  });

  it('a failing plugin keeps the guess', async () => {
    expect(await loadDeviceName(() => Promise.reject(new Error('no plugin')), true)).toBeNull();
    expect(nativeDeviceName()).toBeNull();
  });

  it("the real plugin's web build answers in the browser (what the shell's bridge replaces)", async () => {
    const { Device } = await import('@capacitor/device');
    const info = await Device.getInfo();
    expect(typeof info.model).toBe('string');
  });
});

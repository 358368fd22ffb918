import { Capacitor } from '@capacitor/core';
import { Device, type DeviceInfo } from '@capacitor/device';

/**
 * Spec 1 §7: the mobile login's device_name is "manufacturer model", which only the shell can know
 * (@capacitor/device). It is read once at start-up and kept, so that login (app/env.ts deviceName) stays synchronous;
 * until it arrives, and in any browser, the user-agent guess stands in.
 */
let nativeName: string | null = null;

/** "Google Pixel 8", "Apple iPhone15,2", "samsung SM-S911B"; a model that already names its maker is kept as it is. */
export function deviceNameFromInfo(info: Pick<DeviceInfo, 'manufacturer' | 'model'>): string | null {
  const maker = (info.manufacturer ?? '').trim();
  const model = (info.model ?? '').trim();
  if (!maker && !model) return null;
  const name =
    !maker || model.toLowerCase().startsWith(maker.toLowerCase()) ? model : `${maker} ${model}`.trim();
  return name.slice(0, 255);
}

/** Reads the device's maker and model in the shell; elsewhere, or if the plugin fails, the guess stays. */
export async function loadDeviceName(
  getInfo: () => Promise<Pick<DeviceInfo, 'manufacturer' | 'model'>> = () => Device.getInfo(),
  native: boolean = Capacitor.isNativePlatform(),
): Promise<string | null> {
  if (!native) return null;
  try {
    nativeName = deviceNameFromInfo(await getInfo());
  } catch {
    // The name only labels the token in the user's device list: the user-agent guess is good enough.
  }
  return nativeName;
}

/** The shell's "manufacturer model", once loadDeviceName has read it. */
export function nativeDeviceName(): string | null {
  return nativeName;
}

/** For tests: forget the device read. */
export function resetDeviceName(): void {
  nativeName = null;
}

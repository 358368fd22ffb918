import { Capacitor, type PluginListenerHandle } from '@capacitor/core';
import { PushNotifications } from '@capacitor/push-notifications';
import type { PushDevice } from '@cc/contracts';
import { api, type Envelope } from '../app/api';
import { navigateTo } from '../app/navigation';
import { loadDeviceName, nativeDeviceName } from './device';

/**
 * Push notifications in the mobile shell (issue 19). After sign-in, startPush asks the user's permission, registers
 * with the platform (FCM / APNs through @capacitor/push-notifications) and sends the token to the server
 * (POST /api/push-devices); a tap on a notification opens its link. Before logout, stopPush removes this phone's
 * registration (the server also removes it when the login token is deleted). Outside the shell, or when the plugin
 * is not there, both do nothing: push is an extra, never a reason for sign-in to fail.
 */
/** Push calls never trigger the client's 401 → logout handling: stopPush runs inside logout itself. */
const QUIET = { skipAuthHandling: true, actingAs: false } as const;
let listeners: PluginListenerHandle[] = [];
let deviceId: number | null = null;
let running = false;

function inShell(): boolean {
  return Capacitor.isNativePlatform() && Capacitor.isPluginAvailable('PushNotifications');
}

/** The name the user sees for this phone: the same "manufacturer model" as the login's device_name (device.ts). */
async function deviceName(): Promise<string> {
  return nativeDeviceName() ?? (await loadDeviceName()) ?? 'Phone';
}

/** Only an app path is followed: a push is data from outside and must not send the webview elsewhere. */
export function appPathOf(link: unknown): string | null {
  return typeof link === 'string' && link.startsWith('/') && !link.startsWith('//') ? link : null;
}

async function sendToken(token: string): Promise<void> {
  const platform = Capacitor.getPlatform();
  if (platform !== 'android' && platform !== 'ios') return;
  try {
    const res = await api.post<Envelope<PushDevice>>(
      '/push-devices',
      { token, platform, device_name: await deviceName() },
      QUIET,
    );
    deviceId = res.data.data.id;
  } catch {
    // Not registered this time; the next sign-in tries again.
  }
}

async function permitted(): Promise<boolean> {
  let status = await PushNotifications.checkPermissions();
  if (status.receive === 'prompt' || status.receive === 'prompt-with-rationale')
    status = await PushNotifications.requestPermissions();
  return status.receive === 'granted';
}

export async function startPush(): Promise<void> {
  if (!inShell()) return;
  if (running) {
    // Another person signed in on this phone (a shared tablet's switch): registering again hands the platform's
    // token to the 'registration' listener, whose POST moves the phone to whoever is signed in now.
    await PushNotifications.register().catch(() => undefined);
    return;
  }
  running = true;
  try {
    if (!(await permitted())) {
      running = false;
      return;
    }
    listeners = await Promise.all([
      PushNotifications.addListener('registration', (t) => void sendToken(t.value)),
      PushNotifications.addListener('pushNotificationActionPerformed', (action) => {
        const path = appPathOf(action.notification.data?.link);
        if (path) navigateTo(path);
      }),
    ]);
    await PushNotifications.register();
  } catch {
    running = false;
  }
}

/** This phone's registration: the one this run made, else the one the server marks as made by this login. */
async function ownRegistration(): Promise<number | null> {
  if (deviceId !== null) return deviceId;
  const res = await api.get<Envelope<PushDevice[]>>('/push-devices', QUIET);
  return res.data.data.find((d) => d.current)?.id ?? null;
}

export async function stopPush(): Promise<void> {
  if (!inShell()) return;
  try {
    const id = await ownRegistration();
    if (id !== null) await api.delete(`/push-devices/${id}`, QUIET);
  } catch {
    // Logout goes on: deleting the login token removes the registration on the server too.
  }
  deviceId = null;
  running = false;
  await Promise.all(listeners.map((l) => l.remove().catch(() => undefined)));
  listeners = [];
}

import { Capacitor } from '@capacitor/core';

/** Inside the Capacitor shell (iOS or Android), not the mobile build opened in a browser. */
export function isNativeShell(): boolean {
  return Capacitor.isNativePlatform();
}

/**
 * The shell's bridge answers 'deviceready' listeners as soon as it can take plugin calls (its native-bridge.js
 * patches document.addEventListener for that event). A bridge that never answers must not leave the app on its
 * "Signing in…" screen for ever, hence the fallback.
 */
const DEVICE_READY_FALLBACK_MS = 5000;

/** Resolves when the Capacitor bridge can be called; immediately outside the shell. */
export function deviceReady(): Promise<void> {
  if (!isNativeShell()) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, DEVICE_READY_FALLBACK_MS);
    document.addEventListener(
      'deviceready',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

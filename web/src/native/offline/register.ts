import { Capacitor } from '@capacitor/core';
import { isMobile } from '../../app/env';

/**
 * The mobile build in a browser serves downloaded package files offline through public/offline-sw.js. The native
 * shell needs no worker: its files are on the device (files.ts filesystemSink) and the app is in the bundle.
 */
export function registerOfflineWorker(): void {
  if (!isMobile() || Capacitor.isNativePlatform() || !('serviceWorker' in navigator)) return;
  void navigator.serviceWorker.register('/offline-sw.js', { scope: '/' }).catch(() => {
    // No worker (private mode, an old browser): online learning is unaffected; offline package files are not served.
  });
}

import { nativeDeviceName } from '../native/device';

/** Build-time settings (vite-env.d.ts). Read through functions so tests can stub import.meta.env. */
export function apiOrigin(): string {
  return (import.meta.env.VITE_API_ORIGIN ?? '').replace(/\/$/, '');
}

/** The iOS / Android shell itself (Capacitor's native bridge), not a browser and not the forced-mobile build. */
export function isNativeShell(): boolean {
  const w = globalThis as { Capacitor?: { isNativePlatform?: () => boolean } };
  return Boolean(w.Capacitor?.isNativePlatform?.());
}

/**
 * Mobile mode: the hybrid shell (Capacitor) or a build with VITE_FORCE_MOBILE=1. In mobile mode the client
 * authenticates with a bearer token instead of the session cookie (spec 1 §1, §7).
 */
export function isMobile(): boolean {
  return import.meta.env.VITE_FORCE_MOBILE === '1' || isNativeShell();
}

/**
 * Whether API calls carry cookies. The mobile app signs in with a bearer token and sends none, so the API can allow
 * the shell's origins by CORS without credentials (server MOBILE_ORIGINS); the web app's session is its cookie.
 */
export function requestCredentials(): RequestCredentials {
  return isMobile() ? 'omit' : 'include';
}

/**
 * The main app's origin (spec 1 §4 version check). The shell's page is never on it (capacitor://localhost,
 * https://localhost), so there the API's origin stands in when VITE_MAIN_APP_ORIGIN is unset: the server that
 * answers the API serves the web app too. In a browser the default is the page itself, which never redirects.
 */
export function mainAppOrigin(): string {
  const configured = (import.meta.env.VITE_MAIN_APP_ORIGIN ?? '').replace(/\/$/, '');
  if (configured) return configured;
  return (isNativeShell() && apiOrigin()) || window.location.origin;
}

/**
 * Spec 1 §7: the mobile device_name is made of manufacturer and model. The shell supplies them (native/device.ts);
 * in a browser build, and until the shell has answered, they are guessed from the user agent: "Apple iPhone (Safari)", "Android Pixel 7 (Chrome)", "Windows PC (Edge)".
 */
export function deviceNameFrom(ua: string): string {
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Firefox\/|FxiOS\//.test(ua)
      ? 'Firefox'
      : /Chrome\/|CriOS\//.test(ua)
        ? 'Chrome'
        : /Safari\//.test(ua)
          ? 'Safari'
          : null;
  const apple = /\b(iPhone|iPad|iPod)\b/.exec(ua);
  const android =
    /Android[^;)]*;(?:\s*[a-z]{2}[-_][a-zA-Z]{2};)?\s*([^;)]+?)(?:\s+Build\/[^;)]*)?\s*[;)]/.exec(ua);
  let device: string;
  if (apple) device = `Apple ${apple[1]}`;
  else if (android) device = `Android ${android[1]?.trim() === 'K' ? 'device' : android[1]?.trim()}`;
  else if (/Macintosh|Mac OS X/.test(ua)) device = 'Apple Mac';
  else if (/Windows/.test(ua)) device = 'Windows PC';
  else if (/CrOS/.test(ua)) device = 'Chromebook';
  else if (/Linux/.test(ua)) device = 'Linux PC';
  else device = 'Unknown device';
  return (browser ? `${device} (${browser})` : device).slice(0, 255);
}

export function deviceName(): string {
  return nativeDeviceName() ?? deviceNameFrom(navigator.userAgent || '');
}

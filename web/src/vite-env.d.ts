/// <reference types="vite/client" />

interface ImportMetaEnv {
  /**
   * Separate API host, e.g. https://api.example.com (default: same origin). The Capacitor shell's build must set
   * it: the shell's page is capacitor://localhost (iOS) or https://localhost (Android), which serves no API. The
   * server must then allow those origins (MOBILE_ORIGINS, bearer requests without cookies).
   */
  readonly VITE_API_ORIGIN?: string;
  /** '1' forces mobile mode (bearer token instead of the session cookie), for tests. */
  readonly VITE_FORCE_MOBILE?: string;
  /**
   * The main app origin for the start-up version check (spec 1 §4): a page elsewhere (the shell) whose bundle is a
   * major version behind the server goes there. Default: in the shell VITE_API_ORIGIN, in a browser the page origin.
   */
  readonly VITE_MAIN_APP_ORIGIN?: string;
  /** The app's release, sent with "Contact support" (spec 1 §1); vite.config.ts sets it from package.json. */
  readonly VITE_APP_RELEASE?: string;
}
interface ImportMeta {
  readonly env: ImportMetaEnv;
}

import type { CapacitorConfig } from '@capacitor/cli';

/**
 * The shell wraps the web app's mobile build (VITE_FORCE_MOBILE=1, web/dist-mobile): bearer-token sign-in, the
 * biometric 'Sign In' prompt, native storage and files (web/src/native/). The API lives on another origin
 * (VITE_API_ORIGIN at build time), so the webview's own origin serves only the bundled files.
 */
const config: CapacitorConfig = {
  appId: process.env.CAP_APP_ID ?? 'org.carecompliance.app',
  appName: process.env.CAP_APP_NAME ?? 'CareCompliance',
  webDir: '../web/dist-mobile',
  server: {
    // https://localhost on Android too (the default since Capacitor 6), so the webview is a secure context for
    // WebCrypto and cookies of the API origin are never involved: the shell signs in with a bearer token.
    androidScheme: 'https',
  },
  plugins: {
    PushNotifications: { presentationOptions: ['badge', 'sound', 'alert'] },
  },
};

export default config;

import { readFileSync } from 'node:fs';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type ProxyOptions } from 'vite';

const packageVersion = () =>
  (JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as { version: string })
    .version;

const API = process.env.CC_DEV_API ?? 'http://localhost:3200';

/** Proxy only state-changing calls for paths that are also client routes (/login, /register/{plan}). */
const postOnly = (): ProxyOptions => ({
  target: API,
  changeOrigin: false,
  bypass: (req) => (req.method === 'POST' ? undefined : req.url),
});

// VITE_FORCE_MOBILE=1 builds the mobile-mode bundle (token auth) into dist-mobile for the browser tests.
const mobile = process.env.VITE_FORCE_MOBILE === '1';

/**
 * The mobile build lists every file it emits (offline-assets.json) so its offline worker (public/offline-sw.js) keeps
 * them all: a restart without a network needs the chunks loaded later too, such as the plugins' web implementations
 * the start-up reads the token with, not only those index.html names.
 */
const offlineAssetList = (): Plugin => ({
  name: 'offline-asset-list',
  apply: 'build',
  generateBundle(_options, bundle) {
    const files = Object.keys(bundle)
      .filter((f) => f.startsWith('assets/'))
      .map((f) => `/${f}`);
    this.emitFile({ type: 'asset', fileName: 'offline-assets.json', source: JSON.stringify(files) });
  },
});

export default defineConfig({
  plugins: [react(), tailwindcss(), ...(mobile ? [offlineAssetList()] : [])],
  // The release the help widget reports (spec 1 §1 "app release"); a build may set VITE_APP_RELEASE itself.
  define: {
    'import.meta.env.VITE_APP_RELEASE': JSON.stringify(process.env.VITE_APP_RELEASE ?? packageVersion()),
  },
  build: { outDir: mobile ? 'dist-mobile' : 'dist', emptyOutDir: true, sourcemap: false },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: API },
      '/sanctum': { target: API },
      '/graphql': { target: API },
      // Uploaded SCORM / H5P package files (server/src/packages): same-origin for the SCORM API.
      '/packages': { target: API },
      '/logout': { target: API },
      '/login': postOnly(),
      '/register': postOnly(),
    },
  },
});

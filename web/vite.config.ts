import { readFileSync } from 'node:fs';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type ProxyOptions } from 'vite';

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

export default defineConfig({
  plugins: [react(), tailwindcss()],
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

import react from '@vitejs/plugin-react';
import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Files that replace modules with vi.mock (the Capacitor plugins, the SCORM player) or leave a modal's container in
 * the document: they run each in a fresh module graph and document. Every other file shares its worker's modules and
 * jsdom (issue 27): setting up jsdom and importing the app again for each of 60 files was four fifths of the suite's
 * CPU (377 CPU-seconds against 79). src/test/setup.ts empties the document and storage after each test.
 */
const ISOLATED = ['src/native/offline/**/*.test.{ts,tsx}', 'src/ui/ui.test.tsx'];
const ALL = ['src/**/*.test.{ts,tsx}'];

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'jsdom',
    globals: true,
    setupFiles: ['./src/test/setup.ts'],
    restoreMocks: true,
    // Form tests type through user-event; on a busy 2-core CI machine one can pass 5 s without being wrong.
    testTimeout: 15_000,
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ALL,
          exclude: [...configDefaults.exclude, ...ISOLATED],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});

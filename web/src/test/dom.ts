import { vi } from 'vitest';

/**
 * jsdom has no ResizeObserver; Headless UI's listboxes and comboboxes watch their anchor's size with one. Undone by
 * `vi.unstubAllGlobals()` in the test's afterEach.
 */
export function stubResizeObserver() {
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
}

import { render } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { useHashScroll } from './hash-scroll';

let scrollTo: ReturnType<typeof vi.fn>;
beforeEach(() => {
  scrollTo = vi.fn();
  vi.stubGlobal('scrollTo', scrollTo);
});
afterEach(() => vi.unstubAllGlobals());

/** A page whose card with the hash's id is drawn only after its data "arrives". */
function LatePage({ delayMs }: { delayMs: number }) {
  useHashScroll();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setLoaded(true), delayMs);
    return () => clearTimeout(t);
  }, [delayMs]);
  return loaded ? <section id="personal-data">Your personal data</section> : <p>Loading…</p>;
}

function open(path: string, delayMs: number) {
  const router = createMemoryRouter([{ path: '*', element: <LatePage delayMs={delayMs} /> }], {
    initialEntries: [path],
  });
  return render(<RouterProvider router={router} />);
}

const scrolledSmoothly = () => scrollTo.mock.calls.some(([arg]) => arg?.behavior === 'smooth');

it('scrolls to a hash target that appears once its data has loaded', async () => {
  open('/account#personal-data', 50);
  await vi.waitFor(() => expect(scrolledSmoothly()).toBe(true), { timeout: 1000 });
});

it('does not scroll for a hash whose target never appears', async () => {
  open('/account#nowhere', 10);
  await new Promise((r) => setTimeout(r, 100));
  expect(scrolledSmoothly()).toBe(false);
});

it('goes to the top of a page without a hash', () => {
  open('/account', 10);
  expect(scrollTo).toHaveBeenCalledWith({ top: 0 });
});

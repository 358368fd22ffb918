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

/** A page whose hash target is there at once, but pushed down when the card above it loads. */
function PushedDownPage() {
  useHashScroll();
  const [loaded, setLoaded] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setLoaded(true), 200);
    return () => clearTimeout(t);
  }, []);
  return (
    <>
      {loaded ? <section data-testid="history">Training history</section> : null}
      <section id="personal-data">Your personal data</section>
    </>
  );
}

it('follows a target that the page pushes down while it loads, and stops once the reader scrolls', async () => {
  let top = 100;
  const spy = vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (
    this: HTMLElement,
  ) {
    const y = this.id === 'personal-data' ? top : 0;
    return {
      top: y,
      bottom: y,
      left: 0,
      right: 0,
      width: 0,
      height: 0,
      x: 0,
      y,
      toJSON: () => ({}),
    } as DOMRect;
  });
  const router = createMemoryRouter([{ path: '*', element: <PushedDownPage /> }], {
    initialEntries: ['/account#personal-data'],
  });
  const view = render(<RouterProvider router={router} />);
  await vi.waitFor(() => expect(scrolledSmoothly()).toBe(true));
  top = 900; // the training history loaded above it
  await vi.waitFor(() => expect(view.getByTestId('history')).toBeTruthy());
  await vi.waitFor(() =>
    expect(scrollTo.mock.calls.some(([arg]) => arg?.behavior === 'auto' && arg?.top === 900 - 15)).toBe(true),
  );
  window.dispatchEvent(new Event('wheel'));
  const calls = scrollTo.mock.calls.length;
  top = 1500;
  document.body.appendChild(document.createElement('div'));
  await new Promise((r) => setTimeout(r, 50));
  expect(scrollTo.mock.calls.length).toBe(calls);
  spy.mockRestore();
});

import { HASH_SCROLL_OFFSET_PX } from '@cc/contracts';
import { useEffect } from 'react';
import { useLocation } from 'react-router';

/** Links with a hash scroll smoothly with a 15 px offset (spec 1 §2). */
export function scrollToHash(hash: string, behavior: ScrollBehavior = 'smooth'): boolean {
  const id = decodeURIComponent(hash.replace(/^#/, ''));
  if (!id) return false;
  const target = document.getElementById(id);
  if (!target) return false;
  const top = target.getBoundingClientRect().top + window.scrollY - HASH_SCROLL_OFFSET_PX;
  window.scrollTo({ top, behavior });
  return true;
}

/** How long a hash link follows its target, which a page may draw, or push down, only once its data has loaded. */
const HASH_TARGET_WAIT_MS = 5000;
/** What the reader does that means she has taken over the scrolling: the hash link stops following its target. */
const READER_SCROLLS = ['wheel', 'touchstart', 'keydown', 'mousedown'] as const;

/**
 * Scrolls to the hash's target once the page has rendered, and keeps it in place while the page is still being
 * drawn: a card drawn after its data arrives (or pushed down by cards above it that load later, as /account's
 * "Your personal data" is by the training history) is followed for HASH_TARGET_WAIT_MS or until the reader scrolls
 * herself. Returns the cleanup.
 */
function scrollWhenPresent(hash: string): () => void {
  let observer: MutationObserver | undefined;
  let lastTop: number | null = null;
  const follow = () => {
    const id = decodeURIComponent(hash.replace(/^#/, ''));
    const target = id ? document.getElementById(id) : null;
    if (!target) return;
    const top = target.getBoundingClientRect().top + window.scrollY;
    if (lastTop !== null && Math.abs(top - lastTop) < 2) return;
    // Smoothly the first time; instantly when the page moved it, so the reader never sees it slide away.
    scrollToHash(hash, lastTop === null ? 'smooth' : 'auto');
    lastTop = top;
  };
  const stop = () => {
    observer?.disconnect();
    clearTimeout(giveUp);
    for (const event of READER_SCROLLS) window.removeEventListener(event, stop);
  };
  const giveUp = setTimeout(stop, HASH_TARGET_WAIT_MS);
  for (const event of READER_SCROLLS) window.addEventListener(event, stop, { passive: true });
  const first = setTimeout(() => {
    follow();
    observer = new MutationObserver(follow);
    observer.observe(document.body, { childList: true, subtree: true });
  }, 0);
  return () => {
    clearTimeout(first);
    stop();
  };
}

export function useHashScroll(): void {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation (path or hash change)
  useEffect(() => {
    if (location.hash) return scrollWhenPresent(location.hash);
    window.scrollTo({ top: 0 });
    return undefined;
  }, [location.pathname, location.hash]);
}

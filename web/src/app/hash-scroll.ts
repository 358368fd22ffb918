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

/** How long a hash link waits for its target, which a page may render only once its data has loaded. */
const HASH_TARGET_WAIT_MS = 5000;

/**
 * Scrolls to the hash's target after the page has rendered, or as soon as it appears (a card drawn after its data
 * arrives, such as /account#personal-data); gives up after HASH_TARGET_WAIT_MS. Returns the cleanup.
 */
function scrollWhenPresent(hash: string): () => void {
  let observer: MutationObserver | undefined;
  const stop = () => {
    observer?.disconnect();
    clearTimeout(giveUp);
  };
  const giveUp = setTimeout(stop, HASH_TARGET_WAIT_MS);
  const first = setTimeout(() => {
    if (scrollToHash(hash)) return stop();
    observer = new MutationObserver(() => {
      if (scrollToHash(hash)) stop();
    });
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

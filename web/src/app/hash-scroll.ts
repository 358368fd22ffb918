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

export function useHashScroll(): void {
  const location = useLocation();
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs on every navigation (path or hash change)
  useEffect(() => {
    if (location.hash) {
      // After the page has rendered.
      const t = setTimeout(() => scrollToHash(location.hash), 0);
      return () => clearTimeout(t);
    }
    window.scrollTo({ top: 0 });
    return undefined;
  }, [location.pathname, location.hash]);
}

import { describe, expect, it } from 'vitest';
import { WriteAwareCache } from './write-aware-cache';

describe('WriteAwareCache', () => {
  it('keeps an entry for the TTL at most, four fifths of it at least', () => {
    const longest = new WriteAwareCache<number>(5000, 10, () => 0);
    longest.set('a', 1, longest.current(), 0);
    expect(longest.get('a', 5000)).toBe(1);
    expect(longest.get('a', 5001)).toBeNull();
    const shortest = new WriteAwareCache<number>(5000, 10, () => 0.9999);
    shortest.set('a', 1, shortest.current(), 0);
    expect(shortest.get('a', 4001)).toBe(1);
    expect(shortest.get('a', 4002)).toBeNull();
  });

  it("entries stored together expire spread over the TTL's last fifth, not all at once", () => {
    const cache = new WriteAwareCache<number>(5000);
    const keys = Array.from({ length: 1000 }, (_, i) => `k${i}`);
    for (const key of keys) cache.set(key, 1, cache.current(), 0);
    const alive = (at: number) => keys.filter((key) => cache.get(key, at) !== null).length;
    expect(alive(3999)).toBe(1000);
    const midway = alive(4500);
    expect(midway).toBeGreaterThan(350);
    expect(midway).toBeLessThan(650);
    expect(alive(5001)).toBe(0);
  });

  it('drops a load that a write overtook, and a write empties it', () => {
    const cache = new WriteAwareCache<number>(5000);
    const generation = cache.current();
    cache.invalidate();
    cache.set('a', 1, generation, 0);
    expect(cache.get('a', 1)).toBeNull();
    cache.set('a', 2, cache.current(), 0);
    expect(cache.get('a', 1)).toBe(2);
    cache.invalidate();
    expect(cache.get('a', 1)).toBeNull();
  });
});

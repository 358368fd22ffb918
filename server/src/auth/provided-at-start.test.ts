import { describe, expect, it } from 'vitest';
import { providedAtStart } from './provided-at-start';

// Issue 34 §1: auth takes its entity-tree and permission lookups (and the sign-up confirmation) from bootstrap.ts.
// Forgetting to provide one must fail loudly, naming it, not resolve callers without permissions.
describe('providedAtStart', () => {
  it('refuses to answer before it is provided, naming what is missing, then answers what was provided', () => {
    const lookups = providedAtStart<{ aEntityIdOf(id: number): number }>('The actor lookups');
    expect(() => lookups.get()).toThrow(
      'The actor lookups is not provided: bootstrap.ts openDeps provides it at start.',
    );
    const given = { aEntityIdOf: (id: number) => id };
    lookups.provide(given);
    expect(lookups.get()).toBe(given);
  });
});

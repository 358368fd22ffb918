/**
 * Issue 34 §1: something a lower layer (auth, http) needs from a capability above it, which it may not import:
 * bootstrap.ts (openDeps) provides it once at start. Reading it before then fails, naming what is missing, rather
 * than going on without it.
 */
export interface ProvidedAtStart<T> {
  /** Called by bootstrap.ts; a second call replaces the first (the same functions again). */
  provide(value: T): void;
  get(): T;
}

export function providedAtStart<T>(what: string): ProvidedAtStart<T> {
  let provided: T | null = null;
  return {
    provide(value) {
      provided = value;
    },
    get() {
      if (provided === null)
        throw new Error(`${what} is not provided: bootstrap.ts openDeps provides it at start.`);
      return provided;
    },
  };
}

import argon2 from 'argon2';

/**
 * OWASP ASVS: argon2id. `standard` is OWASP's Password Storage Cheat Sheet configuration for argon2id (19 MiB, t=2,
 * p=1), about 0.05 CPU-seconds a hash on one thread. It was argon2's defaults (64 MiB, t=3, p=4) until issue 36 §2:
 * those take 0.36 CPU-seconds on four threads, both cores of a two-core server, so each sign-in stalled every other
 * request and a login under 200 clients took over 1 s. `fast`, argon2's smallest cost, is for the test suites only
 * (config PASSWORD_HASHING, refused in production): they sign in thousands of times on two cores. A hash records its
 * own cost, so either verifies whichever is chosen, and a sign-in stores the password again at the chosen cost
 * (needsRehash, auth/service.ts).
 */
const COSTS = {
  standard: { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 },
  fast: { type: argon2.argon2id, memoryCost: 1024, timeCost: 1, parallelism: 1 },
} as const;
let cost: keyof typeof COSTS = 'standard';

/** Chosen once at start from the config (bootstrap.ts). */
export function usePasswordHashing(kind: keyof typeof COSTS): void {
  if (kind === cost) return;
  cost = kind;
  dummy = null;
}

export const hashPassword = (password: string) => argon2.hash(password, COSTS[cost]);

/** Whether a stored hash was made at another cost than the chosen one (a sign-in then stores it again). */
export const needsRehash = (hash: string) => argon2.needsRehash(hash, COSTS[cost]);

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  // Verify against a fixed hash when the user has none, so timing does not reveal which accounts exist.
  const target = hash ?? (await dummyHash());
  try {
    return (await argon2.verify(target, password)) && hash !== null;
  } catch {
    return false;
  }
}

let dummy: Promise<string> | null = null;
const dummyHash = () => {
  dummy ??= hashPassword('not-a-real-password-for-timing-only');
  return dummy;
};

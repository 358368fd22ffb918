import argon2 from 'argon2';

/**
 * OWASP ASVS: argon2id. `standard` is argon2's defaults (64 MiB, t=3, p=4), about 0.2 CPU-seconds a hash; `fast`, its
 * smallest cost, is for the test suites only (config PASSWORD_HASHING, refused in production): they sign in thousands
 * of times on two cores. A hash records its own cost, so either verifies whichever is chosen.
 */
const COSTS = {
  standard: { type: argon2.argon2id },
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

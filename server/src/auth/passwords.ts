import argon2 from 'argon2';

// OWASP ASVS: argon2id. Parameters are argon2's defaults (64 MiB, t=3, p=4).
export const hashPassword = (password: string) => argon2.hash(password, { type: argon2.argon2id });

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

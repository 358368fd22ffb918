import { afterAll, describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, usePasswordHashing, verifyPassword } from './passwords';

/**
 * The standard cost is argon2id at 19 MiB, t=2, p=1 (OWASP's Password Storage Cheat Sheet); the suites run at the fast one (vitest.config.ts),
 * and a hash of either cost verifies under the other, because a hash records its own.
 */
describe('password hashing', () => {
  afterAll(() => usePasswordHashing('fast'));

  it('hashes at argon2id 19 MiB, t=2, p=1 when standard, verifies a hash of either cost, and tells one of the other cost', async () => {
    usePasswordHashing('fast');
    const fast = await hashPassword('Correct-Horse-9');
    expect(fast).toMatch(/^\$argon2id\$v=19\$m=1024,p=1,t=1\$/);
    usePasswordHashing('standard');
    const standard = await hashPassword('Correct-Horse-9');
    expect(standard).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
    expect(await verifyPassword(fast, 'Correct-Horse-9')).toBe(true);
    usePasswordHashing('fast');
    expect(await verifyPassword(standard, 'Correct-Horse-9')).toBe(true);
    expect(await verifyPassword(standard, 'Wrong-Horse-9')).toBe(false);
    expect(await verifyPassword(null, 'Correct-Horse-9')).toBe(false);
    expect([needsRehash(fast), needsRehash(standard)]).toEqual([false, true]);
    const argon2Defaults = '$argon2id$v=19$m=65536,t=3,p=4$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG';
    usePasswordHashing('standard');
    expect([needsRehash(fast), needsRehash(standard), needsRehash(argon2Defaults)]).toEqual([
      true,
      false,
      true,
    ]);
  });
});

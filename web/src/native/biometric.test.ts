import { afterEach, describe, expect, it, vi } from 'vitest';
import { confirmSignIn, SIGN_IN_PROMPT } from './biometric';

afterEach(() => vi.unstubAllGlobals());

/** The plugin's web implementation stands in for the sensor with window.confirm. */
describe("biometric 'Sign In' prompt (issue 19)", () => {
  it('asks with the reason "Sign In" and is true when confirmed', async () => {
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    expect(await confirmSignIn()).toBe(true);
    expect(confirm).toHaveBeenCalledWith(SIGN_IN_PROMPT);
    expect(SIGN_IN_PROMPT).toBe('Sign In');
  });

  it('offers the device PIN when the fingerprint is declined, and is false when both are declined', async () => {
    const confirm = vi.fn((_message?: string) => false);
    vi.stubGlobal('confirm', confirm);
    expect(await confirmSignIn()).toBe(false);
    expect(confirm.mock.calls.map((c) => c[0])).toEqual([
      SIGN_IN_PROMPT,
      'Authenticate with device security?',
    ]);
  });

  it('passes on the device PIN after a declined fingerprint', async () => {
    vi.stubGlobal('confirm', vi.fn().mockReturnValueOnce(false).mockReturnValueOnce(true));
    expect(await confirmSignIn()).toBe(true);
  });
});

import { BiometricAuth, BiometryType } from '@aparajita/capacitor-biometric-auth';
import { isNativeShell } from './platform';

/** The prompt's title and reason (spec 1 §4). */
export const SIGN_IN_PROMPT = 'Sign In';

let simulated: Promise<void> | null = null;

/**
 * The mobile build in a browser has no sensor: the plugin's web implementation stands in with confirm dialogs once
 * it is told the device has an enrolled fingerprint and a PIN. In the shell the real hardware answers.
 */
function prepareSimulation(): Promise<void> {
  if (isNativeShell()) return Promise.resolve();
  simulated ??= (async () => {
    await BiometricAuth.setBiometryType(BiometryType.fingerprintAuthentication);
    await BiometricAuth.setBiometryIsEnrolled(true);
    await BiometricAuth.setDeviceIsSecure(true);
  })();
  return simulated;
}

/**
 * The 'Sign In' prompt: a fingerprint (or face), with the device PIN as the fallback. True when the person
 * confirmed; false on cancel, failure, or a device that can check nobody.
 */
export async function confirmSignIn(): Promise<boolean> {
  try {
    await prepareSimulation();
    await BiometricAuth.authenticate({
      reason: SIGN_IN_PROMPT,
      androidTitle: SIGN_IN_PROMPT,
      cancelTitle: 'Cancel',
      allowDeviceCredential: true,
    });
    return true;
  } catch {
    return false;
  }
}

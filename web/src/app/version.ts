import { API_VERSION, VersionResponse } from '@cc/contracts';
import { api } from './api';
import { mainAppOrigin } from './env';

/**
 * Version check at start-up (spec 1 §4, §9): if this page is not on the main app origin and the server's
 * major version is greater than the bundled one, the browser goes to the main app origin.
 */
export function shouldRedirectForVersion(
  pageOrigin: string,
  mainOrigin: string,
  serverMajor: number,
  bundledMajor: number = API_VERSION.major,
): boolean {
  return pageOrigin !== mainOrigin && serverMajor > bundledMajor;
}

export async function checkVersion(): Promise<void> {
  try {
    const res = await api.get('/version', { skipAuthHandling: true, actingAs: false });
    const version = VersionResponse.parse(res.data);
    const main = mainAppOrigin();
    if (shouldRedirectForVersion(window.location.origin, main, version.major)) {
      window.location.href = `${main}${window.location.pathname}${window.location.search}`;
    }
  } catch {
    // An unreachable server shows up on the first real call; the check only redirects.
  }
}

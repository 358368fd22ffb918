import { ClientConfig } from '@cc/contracts';
import { api, type Envelope } from '../api';
import { authStore } from '../auth';
import { routePatternStore } from '../route-meta';
import { configureAnalytics, routeChanged, setAnalyticsUser } from './analytics';
import { startErrorReporting } from './error-reporting';

/** The server's runtime settings (GET /api/client-config); null when it cannot say (both features stay off). */
export async function loadClientConfig(): Promise<ClientConfig | null> {
  try {
    const res = await api.get<Envelope<unknown>>('/client-config', {
      skipAuthHandling: true,
      actingAs: false,
    });
    const parsed = ClientConfig.safeParse(res.data?.data);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Start-up (bootstrap.ts): error reporting and analytics as the server configures them, both off when unset. The
 * route and the signed-in user are followed from the start, so the first page view is not lost while the settings
 * load.
 */
export async function startMonitoring(): Promise<void> {
  let lastUser: number | null | undefined;
  const followUser = () => {
    const id = authStore.get().user?.id ?? null;
    if (id !== lastUser) setAnalyticsUser(id);
    lastUser = id;
  };
  authStore.subscribe(followUser);
  followUser();
  routePatternStore.subscribe(() => routeChanged(routePatternStore.get()));
  const config = await loadClientConfig();
  if (!config) return;
  void startErrorReporting(config.errorReporting);
  configureAnalytics(config.analytics);
}

import './index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { startApp } from './app/bootstrap';
import { ConsentBanner } from './app/monitoring/ConsentBanner';
import { queryClient } from './app/query-client';
import { loadDeviceName } from './native/device';
import { registerOfflineWorker } from './native/offline/register';
import { StartupGate } from './native/StartupGate';
import { createAppRouter } from './router';

// The shell's maker and model, read once at start so that login's device_name has them (spec 1 §7).
void loadDeviceName();
void startApp();
registerOfflineWorker();
// Made once start-up is answered: on mobile its loaders and pages must not run before the session is confirmed.
let router: ReturnType<typeof createAppRouter> | null = null;
const appRouter = () => {
  router ??= createAppRouter();
  return router;
};

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <StartupGate>{() => <RouterProvider router={appRouter()} />}</StartupGate>
      <ConsentBanner />
    </QueryClientProvider>
  </StrictMode>,
);

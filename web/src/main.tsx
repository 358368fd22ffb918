import './index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { startApp } from './app/bootstrap';
import { ConsentBanner } from './app/monitoring/ConsentBanner';
import { queryClient } from './app/query-client';
import { loadDeviceName } from './native/device';
import { createAppRouter } from './router';

// The shell's maker and model, read once at start so that login's device_name has them (spec 1 §7).
void loadDeviceName();
startApp();
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ConsentBanner />
    </QueryClientProvider>
  </StrictMode>,
);

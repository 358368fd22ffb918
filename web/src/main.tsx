import './index.css';
import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { startApp } from './app/bootstrap';
import { ConsentBanner } from './app/monitoring/ConsentBanner';
import { queryClient } from './app/query-client';
import { registerOfflineWorker } from './native/offline/register';
import { createAppRouter } from './router';

startApp();
registerOfflineWorker();
const router = createAppRouter();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ConsentBanner />
    </QueryClientProvider>
  </StrictMode>,
);

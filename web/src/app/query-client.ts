import { QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';
import { onLogout } from './auth';

/** Server state lives in TanStack Query. Auth failures are not retried (the api client already acted). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      staleTime: 30_000,
      refetchOnWindowFocus: false,
      retry: (count, error) => {
        if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
        return count < 2;
      },
    },
    mutations: { retry: false },
  },
});

onLogout(() => queryClient.clear());

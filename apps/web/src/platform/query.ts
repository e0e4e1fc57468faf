import { QueryClient } from '@tanstack/react-query';

/** One cache for the console. Failed calls are already reported by the request client, so no retries. */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
});

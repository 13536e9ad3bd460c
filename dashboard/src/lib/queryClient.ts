import { QueryClient } from '@tanstack/react-query';

import { isApiError } from '../api/mutator';

const MAX_RETRIES = 2;

/**
 * Retry a failed query only when trying again can help: a network failure or a 5xx. A 4xx
 * (bad input, no permission, not found, signed out) answers the same the next time.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (isApiError(error) && error.status >= 400 && error.status < 500) {
    return false;
  }
  return failureCount < MAX_RETRIES;
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        refetchOnWindowFocus: false,
        staleTime: 30_000,
      },
      mutations: {
        // A mutation may have taken effect before the connection dropped; never repeat it blindly.
        retry: false,
      },
    },
  });
}

/** The app's one cache, made once when the module loads (never in render). */
export const queryClient = createQueryClient();

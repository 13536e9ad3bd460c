import { describe, expect, it } from 'vitest';

import { ApiError } from '../api/mutator';
import { createQueryClient, queryClient, shouldRetry } from './queryClient';

const apiError = (status: number) => new ApiError({ status, code: 'x', title: 'x' });

describe('query retries', () => {
  it('never retries a 4xx answer', () => {
    for (const status of [400, 401, 403, 404, 409, 422, 429]) {
      expect(shouldRetry(0, apiError(status))).toBe(false);
    }
  });

  it('retries a 5xx answer up to twice', () => {
    expect(shouldRetry(0, apiError(503))).toBe(true);
    expect(shouldRetry(1, apiError(500))).toBe(true);
    expect(shouldRetry(2, apiError(500))).toBe(false);
  });

  it('retries a network failure up to twice', () => {
    expect(shouldRetry(0, apiError(0))).toBe(true);
    expect(shouldRetry(1, new TypeError('Failed to fetch'))).toBe(true);
    expect(shouldRetry(2, apiError(0))).toBe(false);
  });
});

describe('the query client', () => {
  it('does not refetch when the window regains focus', () => {
    const defaults = createQueryClient().getDefaultOptions();

    expect(defaults.queries?.refetchOnWindowFocus).toBe(false);
    expect(defaults.queries?.retry).toBe(shouldRetry);
    expect(defaults.mutations?.retry).toBe(false);
  });

  it('is one instance for the whole app', async () => {
    const again = await import('./queryClient');

    expect(again.queryClient).toBe(queryClient);
  });
});

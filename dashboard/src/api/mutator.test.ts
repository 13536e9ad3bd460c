import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { ApiError, customFetch, isApiError, setApiBase } from './mutator';
import { clearTokens, getTokens, setTokens, subscribe } from './session';

type Handler = (url: string, init: RequestInit) => Response | Promise<Response>;

interface Call {
  url: string;
  method: string;
  headers: Headers;
  body: BodyInit | null | undefined;
}

/** Replaces global fetch with `handler` and records every call. */
function stubFetch(handler: Handler): Call[] {
  const calls: Call[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const url = String(input);
      calls.push({ url, method: init.method ?? 'GET', headers: new Headers(init.headers), body: init.body });
      return handler(url, init);
    }),
  );
  return calls;
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers },
  });
}

function problem(status: number, code: string, extra: Record<string, unknown> = {}): Response {
  return json(status, { type: `/problems/${code}`, title: 'Problem', status, code, ...extra });
}

const tokenExpired = () =>
  problem(401, 'token_expired', { title: 'Unauthorized', detail: 'Your session has expired.' });

function bearer(call: Call | undefined): string | null {
  return call?.headers.get('Authorization') ?? null;
}

function refreshCalls(calls: Call[]): Call[] {
  return calls.filter((c) => c.url === '/v1/auth/refresh');
}

/** A server whose access token `valid` is the only one accepted; refresh hands out `next`. */
function serverAccepting(valid: string, next: { accessToken: string; refreshToken?: string }, refresh?: () => Promise<void>) {
  return stubFetch(async (url, init) => {
    if (url === '/v1/auth/refresh') {
      await refresh?.();
      return json(200, { status: 200, data: next });
    }
    const auth = new Headers(init.headers).get('Authorization');
    return auth === `Bearer ${valid}` ? json(200, { status: 200, data: { url } }) : tokenExpired();
  });
}

beforeEach(() => {
  clearTokens();
});

afterEach(() => {
  clearTokens();
});

describe('customFetch: requests', () => {
  it('calls the same origin by default and returns the parsed JSON body', async () => {
    const calls = stubFetch(() => json(200, { status: 200, data: { ok: true, version: '1.0.0' } }));

    const body = await customFetch<{ data: { version: string } }>('/healthz', { method: 'GET' });

    expect(body.data.version).toBe('1.0.0');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.url).toBe('/healthz');
    expect(calls[0]?.headers.get('Accept')).toContain('application/json');
  });

  it('sends no credentials when signed out', async () => {
    const calls = stubFetch(() => json(200, {}));

    await customFetch('/v1/anything');

    expect(calls[0]?.headers.has('Authorization')).toBe(false);
    expect(calls[0]?.headers.has('X-RefreshToken')).toBe(false);
  });

  it('sends the access token as a bearer token and the refresh token beside it', async () => {
    setTokens({ accessToken: 'acc-1', refreshToken: 'ref-1' });
    const calls = stubFetch(() => json(200, {}));

    await customFetch('/v1/campaigns', { method: 'GET' });

    expect(bearer(calls[0])).toBe('Bearer acc-1');
    expect(calls[0]?.headers.get('X-RefreshToken')).toBe('ref-1');
  });

  it('keeps an Authorization header the caller set (an API key)', async () => {
    setTokens({ accessToken: 'acc-1', refreshToken: 'ref-1' });
    const calls = stubFetch(() => json(200, {}));

    await customFetch('/v1/campaigns', { headers: { Authorization: 'Bearer betty_sk_123' } });

    expect(bearer(calls[0])).toBe('Bearer betty_sk_123');
    expect(calls[0]?.headers.has('X-RefreshToken')).toBe(false);
  });

  it('serialises a plain object body as JSON', async () => {
    const calls = stubFetch(() => json(201, { status: 201, data: { id: '1' } }));

    await customFetch('/v1/campaigns', { method: 'POST', body: { name: 'Spring' } as unknown as BodyInit });

    expect(calls[0]?.body).toBe('{"name":"Spring"}');
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it('passes a JSON string body through and marks it as JSON', async () => {
    const calls = stubFetch(() => json(200, {}));

    await customFetch('/v1/campaigns', { method: 'POST', body: '{"name":"Spring"}' });

    expect(calls[0]?.body).toBe('{"name":"Spring"}');
    expect(calls[0]?.headers.get('Content-Type')).toBe('application/json');
  });

  it('leaves FormData alone so the browser sets the multipart boundary', async () => {
    const calls = stubFetch(() => json(200, {}));
    const form = new FormData();
    form.append('name', 'leads.csv');

    await customFetch('/v1/uploads', { method: 'POST', body: form });

    expect(calls[0]?.body).toBe(form);
    expect(calls[0]?.headers.has('Content-Type')).toBe(false);
  });

  it('answers undefined for 204 No Content', async () => {
    stubFetch(() => new Response(null, { status: 204 }));

    await expect(customFetch('/v1/thing', { method: 'DELETE' })).resolves.toBeUndefined();
  });

  it('returns text for text responses', async () => {
    stubFetch(() => new Response('go_goroutines 7\n', { status: 200, headers: { 'Content-Type': 'text/plain; version=0.0.4' } }));

    await expect(customFetch('/metrics')).resolves.toBe('go_goroutines 7\n');
  });

  it('uses the base URL set at start-up (VITE_API_BASE) when there is one', async () => {
    setApiBase('https://betty.example.com/');
    try {
      const calls = stubFetch(() => json(200, {}));

      await customFetch('/healthz');

      expect(calls[0]?.url).toBe('https://betty.example.com/healthz');
    } finally {
      setApiBase(undefined);
    }
  });

  it('reads no import.meta, so orval can bundle it without a warning', async () => {
    const source = (await import('./mutator.ts?raw')).default;
    expect(source).not.toMatch(/import\.meta/);
  });
});

describe('customFetch: errors', () => {
  it('throws an ApiError carrying the problem document', async () => {
    stubFetch(() =>
      problem(400, 'validation_failed', {
        title: 'Validation failed',
        detail: 'Some fields are not valid.',
        requestId: 'req-42',
        errors: [
          { field: 'name', message: 'Name is required.' },
          { field: 'priority', message: 'Priority must be one of low, medium, high.' },
        ],
      }),
    );

    const error = await customFetch('/v1/campaigns', { method: 'POST', body: '{}' }).catch((e: unknown) => e);

    expect(isApiError(error)).toBe(true);
    const apiError = error as ApiError;
    expect(apiError).toBeInstanceOf(Error);
    expect(apiError.name).toBe('ApiError');
    expect(apiError.status).toBe(400);
    expect(apiError.code).toBe('validation_failed');
    expect(apiError.title).toBe('Validation failed');
    expect(apiError.detail).toBe('Some fields are not valid.');
    expect(apiError.message).toBe('Some fields are not valid.');
    expect(apiError.requestId).toBe('req-42');
    expect(apiError.errors).toEqual([
      { field: 'name', message: 'Name is required.' },
      { field: 'priority', message: 'Priority must be one of low, medium, high.' },
    ]);
    expect(apiError.fieldError('name')).toBe('Name is required.');
    expect(apiError.fieldError('other')).toBeUndefined();
  });

  it('keeps the version a stale save met (409 currentVersion), and none when the server sends none', async () => {
    stubFetch(() => problem(409, 'conflict', { detail: 'This workflow was changed since you loaded it: it is at version 7 now.', currentVersion: 7 }));
    const stale = (await customFetch('/v1/workflow/save', { method: 'POST', body: '{}' }).catch((e: unknown) => e)) as ApiError;
    expect(stale.status).toBe(409);
    expect(stale.currentVersion).toBe(7);

    stubFetch(() => problem(409, 'conflict', { currentVersion: 'seven' }));
    const other = (await customFetch('/v1/team/api-keys').catch((e: unknown) => e)) as ApiError;
    expect(other.currentVersion).toBeUndefined();
  });

  it('falls back to the title when there is no detail', async () => {
    stubFetch(() => problem(403, 'forbidden', { title: 'You do not have permission to do this.' }));

    const error = (await customFetch('/v1/admin').catch((e: unknown) => e)) as ApiError;

    expect(error.message).toBe('You do not have permission to do this.');
    expect(error.detail).toBe('');
    expect(error.errors).toEqual([]);
  });

  it('names the failure by its status when the body is not a problem document', async () => {
    stubFetch(
      () =>
        new Response('<html>Bad gateway</html>', {
          status: 502,
          statusText: '',
          headers: { 'Content-Type': 'text/html', 'X-Request-Id': 'req-proxy' },
        }),
    );

    const error = (await customFetch('/v1/campaigns').catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(502);
    expect(error.code).toBe('internal');
    expect(error.requestId).toBe('req-proxy');
    expect(error.message).toBe('The Betty server is not answering right now. Try again in a moment.');
  });

  it('uses a code that matches a 404 without a problem body', async () => {
    stubFetch(() => new Response('', { status: 404, statusText: 'Not Found' }));

    const error = (await customFetch('/v1/nothing').catch((e: unknown) => e)) as ApiError;

    expect(error.code).toBe('not_found');
    expect(error.message).toBe('The server could not complete the request (HTTP 404).');
  });

  it('turns a network failure into an ApiError with status 0', async () => {
    stubFetch(() => {
      throw new TypeError('Failed to fetch');
    });

    const error = (await customFetch('/healthz').catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error.status).toBe(0);
    expect(error.code).toBe('network_error');
    expect(error.message).toMatch(/could not reach the betty server/i);
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('lets an aborted request reject with the AbortError itself', async () => {
    stubFetch(() => {
      throw new DOMException('The operation was aborted.', 'AbortError');
    });

    const error = await customFetch('/healthz').catch((e: unknown) => e);

    expect(error).toBeInstanceOf(DOMException);
    expect((error as DOMException).name).toBe('AbortError');
  });
});

describe('customFetch: renewing an expired session', () => {
  it('refreshes once with X-RefreshToken, stores the new tokens and retries the request', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    const calls = serverAccepting('new-acc', { accessToken: 'new-acc', refreshToken: 'new-ref' });

    const body = await customFetch<{ data: { url: string } }>('/v1/campaigns', { method: 'GET' });

    expect(body.data.url).toBe('/v1/campaigns');
    expect(calls.map((c) => c.url)).toEqual(['/v1/campaigns', '/v1/auth/refresh', '/v1/campaigns']);
    const refresh = refreshCalls(calls)[0];
    expect(refresh?.method).toBe('POST');
    expect(refresh?.headers.get('X-RefreshToken')).toBe('old-ref');
    expect(bearer(calls[2])).toBe('Bearer new-acc');
    expect(calls[2]?.headers.get('X-RefreshToken')).toBe('new-ref');
    expect(getTokens()).toEqual({ accessToken: 'new-acc', refreshToken: 'new-ref' });
  });

  it('keeps the refresh token when the server does not rotate it', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    serverAccepting('new-acc', { accessToken: 'new-acc' });

    await customFetch('/v1/campaigns');

    expect(getTokens()).toEqual({ accessToken: 'new-acc', refreshToken: 'old-ref' });
  });

  it('replays the request body on the retry', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    const calls = serverAccepting('new-acc', { accessToken: 'new-acc', refreshToken: 'new-ref' });

    await customFetch('/v1/campaigns', { method: 'POST', body: '{"name":"Spring"}' });

    const posts = calls.filter((c) => c.url === '/v1/campaigns');
    expect(posts.map((c) => c.body)).toEqual(['{"name":"Spring"}', '{"name":"Spring"}']);
    expect(posts.map((c) => c.method)).toEqual(['POST', 'POST']);
  });

  it('shares one refresh between concurrent requests', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const calls = serverAccepting('new-acc', { accessToken: 'new-acc', refreshToken: 'new-ref' }, () => gate);

    const requests = Promise.all([
      customFetch('/v1/campaigns'),
      customFetch('/v1/agents'),
      customFetch('/v1/inbox'),
    ]);
    // Let all three meet token_expired while the one refresh is held open.
    await vi.waitFor(() => expect(refreshCalls(calls)).toHaveLength(1));
    await vi.waitFor(() => expect(calls.filter((c) => bearer(c) === 'Bearer old-acc')).toHaveLength(3));
    release();
    await requests;

    expect(refreshCalls(calls)).toHaveLength(1);
    const retries = calls.filter((c) => bearer(c) === 'Bearer new-acc').map((c) => c.url);
    expect(retries.sort()).toEqual(['/v1/agents', '/v1/campaigns', '/v1/inbox']);
  });

  it('retries with tokens another request already renewed, without refreshing again', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    const calls = stubFetch((url, init) => {
      const auth = new Headers(init.headers).get('Authorization');
      if (auth === 'Bearer old-acc') {
        // Another tab renewed the session while this request was on the wire.
        setTokens({ accessToken: 'fresh-acc', refreshToken: 'fresh-ref' });
        return tokenExpired();
      }
      return url === '/v1/auth/refresh' ? json(500, {}) : json(200, { ok: true });
    });

    await expect(customFetch('/v1/campaigns')).resolves.toEqual({ ok: true });

    expect(refreshCalls(calls)).toHaveLength(0);
    expect(bearer(calls[1])).toBe('Bearer fresh-acc');
  });

  it('retries only once: a second token_expired is thrown', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    const calls = serverAccepting('never-valid', { accessToken: 'new-acc', refreshToken: 'new-ref' });

    const error = (await customFetch('/v1/campaigns').catch((e: unknown) => e)) as ApiError;

    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe('token_expired');
    expect(refreshCalls(calls)).toHaveLength(1);
    expect(calls).toHaveLength(3);
  });

  it('signs the user out when the server refuses the refresh token', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    const seen: unknown[] = [];
    const unsubscribe = subscribe((tokens) => seen.push(tokens));
    const calls = stubFetch((url) =>
      url === '/v1/auth/refresh' ? problem(401, 'refresh_token_reused', { detail: 'Please sign in again.' }) : tokenExpired(),
    );

    const error = (await customFetch('/v1/campaigns').catch((e: unknown) => e)) as ApiError;
    unsubscribe();

    expect(error.code).toBe('token_expired');
    expect(error.message).toBe('Your session has expired.');
    expect(getTokens()).toBeNull();
    expect(seen).toEqual([null]);
    expect(calls).toHaveLength(2);
  });

  it('keeps the session another tab renewed while this tab\'s refresh was refused', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    const calls = stubFetch((url, init) => {
      if (url === '/v1/auth/refresh') {
        // The other tab used the same single-use refresh token first.
        setTokens({ accessToken: 'tab2-acc', refreshToken: 'tab2-ref' });
        return problem(401, 'refresh_token_reused');
      }
      const auth = new Headers(init.headers).get('Authorization');
      return auth === 'Bearer tab2-acc' ? json(200, { ok: true }) : tokenExpired();
    });

    await expect(customFetch('/v1/campaigns')).resolves.toEqual({ ok: true });

    expect(getTokens()).toEqual({ accessToken: 'tab2-acc', refreshToken: 'tab2-ref' });
    expect(bearer(calls[2])).toBe('Bearer tab2-acc');
  });

  it('keeps the session when the refresh meets a server error', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    stubFetch((url) => (url === '/v1/auth/refresh' ? problem(503, 'unavailable') : tokenExpired()));

    await expect(customFetch('/v1/campaigns')).rejects.toMatchObject({ code: 'token_expired' });

    expect(getTokens()).toEqual({ accessToken: 'old-acc', refreshToken: 'old-ref' });
  });

  it('signs the user out when the refresh answer carries no tokens', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    stubFetch((url) => (url === '/v1/auth/refresh' ? json(200, { status: 200, data: {} }) : tokenExpired()));

    await expect(customFetch('/v1/campaigns')).rejects.toBeInstanceOf(ApiError);

    expect(getTokens()).toBeNull();
  });

  it('keeps the session when the refresh cannot reach the server', async () => {
    setTokens({ accessToken: 'old-acc', refreshToken: 'old-ref' });
    stubFetch((url) => {
      if (url === '/v1/auth/refresh') {
        throw new TypeError('Failed to fetch');
      }
      return tokenExpired();
    });

    await expect(customFetch('/v1/campaigns')).rejects.toMatchObject({ code: 'token_expired' });

    expect(getTokens()).toEqual({ accessToken: 'old-acc', refreshToken: 'old-ref' });
  });

  it('does not try to refresh without a session', async () => {
    const calls = stubFetch(() => tokenExpired());

    await expect(customFetch('/v1/campaigns')).rejects.toMatchObject({ status: 401, code: 'token_expired' });

    expect(calls).toHaveLength(1);
  });

  it('does not refresh on other 401s', async () => {
    setTokens({ accessToken: 'acc', refreshToken: 'ref' });
    const calls = stubFetch(() => problem(401, 'invalid_token'));

    await expect(customFetch('/v1/campaigns')).rejects.toMatchObject({ code: 'invalid_token' });

    expect(calls).toHaveLength(1);
    expect(getTokens()).toEqual({ accessToken: 'acc', refreshToken: 'ref' });
  });
});

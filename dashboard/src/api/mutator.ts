// The one fetch function every generated hook calls (orval's `override.mutator`). It owns the
// transport rules of the contract so no screen repeats them:
//   - the base URL (VITE_API_BASE, set by main.tsx, else the page's own origin, where
//     `betty serve` embeds us);
//   - the session's Authorization and X-RefreshToken headers;
//   - JSON request and response bodies;
//   - problem+json errors, thrown as a typed ApiError;
//   - renewing an expired access token once (shared by concurrent requests) and retrying.

import { clearTokens, getTokens, setTokens, type SessionTokens } from './session';

export interface FieldError {
  field: string;
  message: string;
}

/** An RFC 9457 problem document as the server sends it (every member optional on the wire). */
export interface ProblemDetails {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  instance?: string;
  code?: string;
  requestId?: string;
  errors?: FieldError[];
  /** On the 409 of a stale versioned save: the version stored now. */
  currentVersion?: number;
}

/** A request that failed: the server's problem document, or a network failure (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly code: string;
  readonly title: string;
  readonly detail: string;
  readonly errors: FieldError[];
  readonly requestId: string | undefined;
  /** On the 409 of a stale versioned save: the version stored now (the choice it offers names it). */
  readonly currentVersion: number | undefined;

  constructor(init: {
    status: number;
    code: string;
    title: string;
    detail?: string | undefined;
    errors?: FieldError[] | undefined;
    requestId?: string | undefined;
    currentVersion?: number | undefined;
    cause?: unknown;
  }) {
    const detail = init.detail ?? '';
    super(plainMessage(init.status, init.title, detail), { cause: init.cause });
    this.status = init.status;
    this.code = init.code;
    this.title = init.title;
    this.detail = detail;
    this.errors = init.errors ?? [];
    this.requestId = init.requestId;
    this.currentVersion = init.currentVersion;
  }

  /** The message for one field, for forms that show errors beside their inputs. */
  fieldError(field: string): string | undefined {
    return this.errors.find((e) => e.field === field)?.message;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

// orval looks for these two exports to type the generated hooks' errors and bodies.
export type ErrorType<_Problem> = ApiError;
export type BodyType<Body> = Body;

// Set once at start-up from VITE_API_BASE. This file does not read Vite's env itself: orval
// bundles it as CommonJS to inspect the mutator, and would warn on every generate.
let apiBase = '';

/** Where the API lives, e.g. https://betty.example.com; empty for the page's own origin. */
export function setApiBase(base: string | undefined): void {
  apiBase = (base ?? '').replace(/\/+$/, '');
}

const REFRESH_PATH = '/v1/auth/refresh';

const NETWORK_MESSAGE = 'Could not reach the Betty server. Check your connection and try again.';
const UNAVAILABLE_MESSAGE = 'The Betty server is not answering right now. Try again in a moment.';

/** Fallback codes for error answers that carry no problem document (a proxy's HTML page, say). */
const CODE_BY_STATUS: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  422: 'unprocessable',
  429: 'rate_limited',
  501: 'not_implemented',
  503: 'unavailable',
};

function plainMessage(status: number, title: string, detail: string): string {
  if (detail) return detail;
  if (title) return title;
  if (status === 0) return NETWORK_MESSAGE;
  if (status === 502 || status === 503 || status === 504) return UNAVAILABLE_MESSAGE;
  return `The server could not complete the request (HTTP ${status}).`;
}

export function apiUrl(path: string): string {
  return /^https?:\/\//i.test(path) ? path : `${apiBase}${path}`;
}

/**
 * The generated hooks' fetch. `url` is the operation's path and query; `options` the RequestInit
 * orval builds (method, headers, a JSON string body, the query's AbortSignal).
 */
export async function customFetch<T>(url: string, options: RequestInit = {}): Promise<T> {
  const tokens = getTokens();
  const response = await send(url, options, tokens);
  if (response.ok) {
    return (await readBody(response)) as T;
  }

  const error = await toApiError(response);
  if (error.code !== 'token_expired' || tokens === null) {
    throw error;
  }

  const renewed = await renewedTokens(tokens);
  if (renewed === null) {
    throw error;
  }
  const retry = await send(url, options, renewed);
  if (retry.ok) {
    return (await readBody(retry)) as T;
  }
  throw await toApiError(retry);
}

async function send(
  url: string,
  options: RequestInit,
  tokens: SessionTokens | null,
): Promise<Response> {
  const headers = new Headers(options.headers);
  if (!headers.has('Accept')) {
    // JSON first, but recordings, exports and streams answer in their own types.
    headers.set('Accept', 'application/json, application/problem+json;q=0.9, */*;q=0.8');
  }
  // An explicit Authorization (an API key, say) wins over the session.
  if (tokens !== null && !headers.has('Authorization')) {
    headers.set('Authorization', `Bearer ${tokens.accessToken}`);
    headers.set('X-RefreshToken', tokens.refreshToken);
  }

  let body = options.body;
  if (isPlainJson(body)) {
    body = JSON.stringify(body);
  }
  if (typeof body === 'string' && !headers.has('Content-Type')) {
    headers.set('Content-Type', 'application/json');
  }

  try {
    return await fetch(apiUrl(url), { ...options, headers, body: body ?? null });
  } catch (cause) {
    // A cancelled query must stay an AbortError so TanStack Query recognises it.
    if (cause instanceof DOMException && cause.name === 'AbortError') {
      throw cause;
    }
    throw new ApiError({ status: 0, code: 'network_error', title: '', cause });
  }
}

/** A plain object or array passed as body (not a string, FormData, Blob, stream...). */
function isPlainJson(body: unknown): body is object {
  if (body === null || typeof body !== 'object') return false;
  if (Array.isArray(body)) return true;
  const proto: unknown = Object.getPrototypeOf(body);
  return proto === Object.prototype || proto === null;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204 || response.status === 205) {
    return undefined;
  }
  const type = response.headers.get('Content-Type') ?? '';
  if (/[/+]json\b/i.test(type)) {
    const text = await response.text();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  }
  if (type.startsWith('text/') || type === '') {
    return response.text();
  }
  return response.blob();
}

async function toApiError(response: Response): Promise<ApiError> {
  let problem: ProblemDetails = {};
  try {
    const body = await readBody(response);
    if (body !== null && typeof body === 'object' && !(body instanceof Blob)) {
      problem = body as ProblemDetails;
    }
  } catch {
    // An unreadable body still yields an error named by its status.
  }
  const status = response.status;
  return new ApiError({
    status,
    code: stringOr(problem.code, CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'bad_request')),
    // A bare status line ("Bad Gateway") is no message for a person; only a problem's title is.
    title: stringOr(problem.title, ''),
    detail: stringOr(problem.detail, ''),
    errors: Array.isArray(problem.errors) ? problem.errors.filter(isFieldError) : [],
    requestId: stringOr(problem.requestId, response.headers.get('X-Request-Id') ?? '') || undefined,
    currentVersion: Number.isInteger(problem.currentVersion) ? problem.currentVersion : undefined,
  });
}

function stringOr(value: unknown, fallback: string): string {
  return typeof value === 'string' && value !== '' ? value : fallback;
}

function isFieldError(value: unknown): value is FieldError {
  if (value === null || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return typeof v['field'] === 'string' && typeof v['message'] === 'string';
}

// One renewal at a time: every request that meets token_expired while it runs waits for it.
let inFlightRefresh: Promise<SessionTokens | null> | null = null;

/**
 * Tokens to retry with after `used` met token_expired, or null when the session is over.
 * If another request already renewed the session, its tokens are used without a new refresh.
 */
async function renewedTokens(used: SessionTokens): Promise<SessionTokens | null> {
  const current = getTokens();
  if (current === null) {
    return null;
  }
  if (current.accessToken !== used.accessToken && inFlightRefresh === null) {
    return current;
  }
  if (inFlightRefresh === null) {
    inFlightRefresh = refresh(current).finally(() => {
      inFlightRefresh = null;
    });
  }
  return inFlightRefresh;
}

async function refresh(tokens: SessionTokens): Promise<SessionTokens | null> {
  let response: Response;
  try {
    response = await fetch(apiUrl(REFRESH_PATH), {
      method: 'POST',
      headers: {
        Accept: 'application/json, application/problem+json',
        'X-RefreshToken': tokens.refreshToken,
      },
    });
  } catch {
    // The server could not be reached: the session may still be good, so keep it.
    return null;
  }
  if (!response.ok) {
    if (response.status >= 500) {
      return null;
    }
    // Refresh tokens are single-use: if another tab renewed the session with this same token
    // meanwhile, the server refuses ours, but the session lives on in the shared storage.
    const now = getTokens();
    if (now !== null && now.refreshToken !== tokens.refreshToken) {
      return now;
    }
    // The server refused the refresh token (expired, revoked, reused): sign out.
    clearTokens();
    return null;
  }
  let renewed: SessionTokens | null = null;
  try {
    renewed = tokensFrom(await readBody(response), tokens.refreshToken);
  } catch {
    renewed = null;
  }
  if (renewed === null) {
    clearTokens();
    return null;
  }
  setTokens(renewed);
  return renewed;
}

/**
 * The tokens in a refresh answer: the envelope's `data` (or `data.session`) with an
 * `accessToken` and, when the server rotates it, a new `refreshToken`.
 */
function tokensFrom(body: unknown, previousRefresh: string): SessionTokens | null {
  const data = field(body, 'data');
  for (const candidate of [field(data, 'session'), data, body]) {
    const accessToken = field(candidate, 'accessToken');
    if (typeof accessToken === 'string' && accessToken !== '') {
      const refreshToken = field(candidate, 'refreshToken');
      return {
        accessToken,
        refreshToken: typeof refreshToken === 'string' && refreshToken !== '' ? refreshToken : previousRefresh,
      };
    }
  }
  return null;
}

function field(value: unknown, name: string): unknown {
  return value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[name] : undefined;
}

// The team's live updates: `GET /v1/events`, a server-sent event stream read with `fetch` (not
// EventSource, which cannot send the Authorization header). The stream tells the dashboard what
// changed; the caches of the screens showing it are refreshed (see useLiveEvents.ts). While the
// stream is not open — the server does not offer it, the connection dropped, the tab is being
// reconnected — each screen polls at the spec's intervals instead (`usePollInterval`).
//
// Wire format (the WHATWG "server-sent events" rules): lines end with LF, CR or CRLF; a blank
// line dispatches the event; `:` starts a comment (the server's keep-alive); `id`, `event`,
// `data` (joined with LF when repeated) and `retry` (milliseconds, digits only) are the fields;
// one space after the colon is dropped. On reconnection the last id is sent as Last-Event-ID so
// the server replays what was missed; when it cannot, it sends `reset` and every list is refetched.

import { useSyncExternalStore } from 'react';

import { apiUrl } from '../api/mutator';
import { getTokens } from '../api/session';

export interface ServerEvent {
  /** The event's id (the last one seen when the event carried none); '' before any. */
  id: string;
  /** `message` when the event named none. */
  event: string;
  data: string;
}

/** Turns chunks of the stream into events; keeps the last id and the server's retry delay. */
export class EventStreamParser {
  lastEventId = '';
  /** The reconnection delay the server asked for, in ms; undefined until it sends one. */
  retry: number | undefined;
  private buffer = '';
  private data: string[] = [];
  private event = '';
  private sawCR = false;

  /** Feeds text as it arrives (any split, even inside a line); answers the events completed. */
  feed(chunk: string): ServerEvent[] {
    const out: ServerEvent[] = [];
    let text = chunk;
    // A CR that ended the previous chunk already ended its line: drop the LF of that CRLF.
    if (this.sawCR && text.startsWith('\n')) text = text.slice(1);
    this.sawCR = false;
    this.buffer += text;
    let start = 0;
    for (let i = 0; i < this.buffer.length; i++) {
      const c = this.buffer[i];
      if (c !== '\n' && c !== '\r') continue;
      const line = this.buffer.slice(start, i);
      if (c === '\r') {
        if (i + 1 < this.buffer.length) {
          if (this.buffer[i + 1] === '\n') i++;
        } else {
          this.sawCR = true;
        }
      }
      start = i + 1;
      const event = this.line(line);
      if (event) out.push(event);
    }
    this.buffer = this.buffer.slice(start);
    return out;
  }

  private line(line: string): ServerEvent | null {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return null;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    switch (field) {
      case 'data':
        this.data.push(value);
        break;
      case 'event':
        this.event = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.retry = Number(value);
        break;
      default:
        break;
    }
    return null;
  }

  private dispatch(): ServerEvent | null {
    const data = this.data;
    const event = this.event;
    this.data = [];
    this.event = '';
    if (data.length === 0) return null;
    return { id: this.lastEventId, event: event || 'message', data: data.join('\n') };
  }
}

export type StreamStatus = 'connecting' | 'open' | 'unavailable';

export interface EventStreamOptions {
  organizationId: string;
  onEvent: (event: ServerEvent) => void;
  onStatus?: (status: StreamStatus) => void;
  /** Called when the access token was refused, before the next attempt (to renew the session). */
  onUnauthorized?: () => Promise<void> | void;
  fetch?: typeof fetch;
  /** Waits between attempts; tests pass one that resolves at once. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** The server's `retry: 5000` until it says otherwise. */
export const DEFAULT_RETRY_MS = 5_000;
/** A server without the stream (404/501) is asked again this rarely. */
export const UNSUPPORTED_RETRY_MS = 5 * 60_000;
const MAX_BACKOFF_MS = 60_000;

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** The delay before attempt `failures` (1, 2, …) after the last failed one: the server's retry, doubled up to a minute. */
export function backoff(retry: number, failures: number): number {
  return Math.min(MAX_BACKOFF_MS, retry * 2 ** Math.max(0, failures - 1));
}

/**
 * Keeps the team's event stream open until `signal` aborts: reconnects after a drop with the
 * last id, backs off while the server fails, and reports whether the stream is open.
 */
export async function runEventStream(options: EventStreamOptions, signal: AbortSignal): Promise<void> {
  const doFetch = options.fetch ?? fetch;
  const sleep = options.sleep ?? defaultSleep;
  const parser = new EventStreamParser();
  const status = (s: StreamStatus) => options.onStatus?.(s);
  let failures = 0;
  while (!signal.aborted) {
    status(failures === 0 ? 'connecting' : 'unavailable');
    let wait = 0;
    try {
      const headers = new Headers({ Accept: 'text/event-stream' });
      const tokens = getTokens();
      if (tokens) headers.set('Authorization', `Bearer ${tokens.accessToken}`);
      if (parser.lastEventId) headers.set('Last-Event-ID', parser.lastEventId);
      const url = apiUrl(`/v1/events?organizationId=${encodeURIComponent(options.organizationId)}`);
      const response = await doFetch(url, { headers, signal, cache: 'no-store' });
      if (response.status === 401) {
        failures++;
        status('unavailable');
        await options.onUnauthorized?.();
        wait = backoff(parser.retry ?? DEFAULT_RETRY_MS, failures);
      } else if (response.status === 404 || response.status === 501) {
        // This server has no event stream: poll, and look again now and then.
        failures++;
        status('unavailable');
        wait = UNSUPPORTED_RETRY_MS;
      } else if (!response.ok || !response.body || !(response.headers.get('Content-Type') ?? '').startsWith('text/event-stream')) {
        failures++;
        status('unavailable');
        wait = backoff(parser.retry ?? DEFAULT_RETRY_MS, failures);
      } else {
        failures = 0;
        status('open');
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          for (const event of parser.feed(value)) options.onEvent(event);
        }
        // The server closed the stream: reconnect after its retry delay.
        failures = 1;
        status('unavailable');
        wait = parser.retry ?? DEFAULT_RETRY_MS;
      }
    } catch {
      if (signal.aborted) break;
      failures++;
      status('unavailable');
      wait = backoff(parser.retry ?? DEFAULT_RETRY_MS, failures);
    }
    if (signal.aborted) break;
    await sleep(wait, signal);
  }
}

// --- whether the stream is open, for the screens that poll without it ---

let current: StreamStatus = 'unavailable';
const statusListeners = new Set<() => void>();
const eventListeners = new Set<(event: ServerEvent) => void>();

export function setStreamStatus(status: StreamStatus): void {
  if (status === current) return;
  current = status;
  for (const l of statusListeners) l();
}

export function streamStatus(): StreamStatus {
  return current;
}

function subscribeStatus(listener: () => void): () => void {
  statusListeners.add(listener);
  return () => statusListeners.delete(listener);
}

export function useStreamStatus(): StreamStatus {
  return useSyncExternalStore(subscribeStatus, streamStatus, streamStatus);
}

/** Passes every event of the stream to `listener` (a screen watching one call, say); answers the unsubscribe. */
export function subscribeEvents(listener: (event: ServerEvent) => void): () => void {
  eventListeners.add(listener);
  return () => eventListeners.delete(listener);
}

export function publishEvent(event: ServerEvent): void {
  for (const l of eventListeners) l(event);
}

/**
 * The spec's polling intervals (section 9), used while the stream is not open: jobs every 5 s,
 * a workflow's job history every 60 s, campaigns and workflows every 10 s, the inbox every
 * 5 minutes (its cache time).
 */
export const FALLBACK_POLL_MS = {
  jobs: 5_000,
  jobHistory: 60_000,
  campaigns: 10_000,
  workflows: 10_000,
  inbox: 5 * 60_000,
  calls: 10_000,
} as const;

export type PollKind = keyof typeof FALLBACK_POLL_MS;

/** How often a screen polls `kind`: never while the stream is open, the spec's interval otherwise. */
export function pollInterval(kind: PollKind, status: StreamStatus): number | false {
  return status === 'open' ? false : FALLBACK_POLL_MS[kind];
}

export function usePollInterval(kind: PollKind): number | false {
  return pollInterval(kind, useStreamStatus());
}

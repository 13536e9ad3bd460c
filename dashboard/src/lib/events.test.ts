import { afterEach, describe, expect, it, vi } from 'vitest';

import { setTokens } from '../api/session';
import { backoff, DEFAULT_RETRY_MS, EventStreamParser, FALLBACK_POLL_MS, pollInterval, runEventStream, setStreamStatus, streamStatus, UNSUPPORTED_RETRY_MS, type ServerEvent, type StreamStatus } from './events';

describe('the event-stream parser', () => {
  it('reads id, event and data, and dispatches on a blank line', () => {
    const p = new EventStreamParser();
    expect(p.feed('id: 7\nevent: job.updated\ndata: {"id":"j1"}\n')).toEqual([]);
    expect(p.feed('\n')).toEqual([{ id: '7', event: 'job.updated', data: '{"id":"j1"}' }]);
    expect(p.lastEventId).toBe('7');
  });

  it('joins repeated data lines, names unnamed events "message" and skips comments', () => {
    const p = new EventStreamParser();
    expect(p.feed(': keep-alive\n\ndata: a\ndata:b\n\n')).toEqual([{ id: '', event: 'message', data: 'a\nb' }]);
  });

  it('reads retry only when it is digits, and drops exactly one space after the colon', () => {
    const p = new EventStreamParser();
    p.feed('retry: 5000\n\nretry: soon\n\n');
    expect(p.retry).toBe(5000);
    expect(p.feed('data:  two spaces\n\n')[0]!.data).toBe(' two spaces');
  });

  it('handles CRLF and CR line ends, even split between chunks', () => {
    const p = new EventStreamParser();
    const chunks = ['id: 1\r', '\nevent: call.updated\r\nda', 'ta: {"x":1}\r', '\r\n', 'data: next\r\r'];
    const events = chunks.flatMap((c) => p.feed(c));
    expect(events).toEqual([
      { id: '1', event: 'call.updated', data: '{"x":1}' },
      { id: '1', event: 'message', data: 'next' },
    ]);
  });

  it('keeps the last id for events without one, and an id-only block dispatches nothing', () => {
    const p = new EventStreamParser();
    expect(p.feed('id: 9\n\n')).toEqual([]);
    expect(p.feed('event: reset\ndata: {}\n\n')).toEqual([{ id: '9', event: 'reset', data: '{}' }]);
  });

  it('feeds one character at a time as well as all at once', () => {
    const text = 'retry: 5000\n\nid: 1\nevent: job.updated\ndata: {"a":1}\n\n: ping\n\nid: 2\nevent: inbox.updated\ndata: {"b":2}\n\n';
    const whole = new EventStreamParser().feed(text);
    const p = new EventStreamParser();
    const split = [...text].flatMap((c) => p.feed(c));
    expect(split).toEqual(whole);
    expect(whole.map((e) => e.id)).toEqual(['1', '2']);
  });
});

/** A Response streaming `chunks` as an event stream. */
function streamResponse(chunks: string[]): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const enc = new TextEncoder();
      for (const c of chunks) controller.enqueue(enc.encode(c));
      controller.close();
    },
  });
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache' } });
}

describe('the stream connection', () => {
  afterEach(() => setStreamStatus('unavailable'));

  it('sends the session token, reconnects after a drop with Last-Event-ID, and reports open/unavailable', async () => {
    setTokens({ accessToken: 'tok', refreshToken: 'r' });
    const controller = new AbortController();
    const seen: { url: string; auth: string | null; last: string | null }[] = [];
    const events: ServerEvent[] = [];
    const statuses: StreamStatus[] = [];
    const waits: number[] = [];
    const fetchImpl = vi.fn(async (url: RequestInfo | URL, init?: RequestInit) => {
      const h = new Headers(init?.headers);
      seen.push({ url: String(url), auth: h.get('Authorization'), last: h.get('Last-Event-ID') });
      if (seen.length === 1) return streamResponse(['retry: 1234\n\n', 'id: 41\nevent: job.updated\ndata: {"id":"j"}\n\n']);
      if (seen.length === 2) return new Response('oops', { status: 502 });
      controller.abort();
      return streamResponse([]);
    });
    await runEventStream(
      { organizationId: 'team 1', onEvent: (e) => events.push(e), onStatus: (s) => statuses.push(s), fetch: fetchImpl as typeof fetch, sleep: async (ms) => void waits.push(ms) },
      controller.signal,
    );
    expect(seen[0]).toEqual({ url: '/v1/events?organizationId=team%201', auth: 'Bearer tok', last: null });
    expect(seen[1]!.last).toBe('41');
    expect(seen[2]!.last).toBe('41');
    expect(events).toEqual([{ id: '41', event: 'job.updated', data: '{"id":"j"}' }]);
    expect(statuses.slice(0, 3)).toEqual(['connecting', 'open', 'unavailable']);
    // After the drop: the server's retry; after the 502: doubled.
    expect(waits).toEqual([1234, 2468]);
  });

  it('a server without the stream (404) is polled instead and asked again only every few minutes', async () => {
    const controller = new AbortController();
    const statuses: StreamStatus[] = [];
    const waits: number[] = [];
    const fetchImpl = vi.fn(async () => {
      if (fetchImpl.mock.calls.length >= 2) controller.abort();
      return new Response(JSON.stringify({ status: 404 }), { status: 404, headers: { 'Content-Type': 'application/problem+json' } });
    });
    await runEventStream({ organizationId: 't', onEvent: () => {}, onStatus: (s) => statuses.push(s), fetch: fetchImpl as typeof fetch, sleep: async (ms) => void waits.push(ms) }, controller.signal);
    expect(statuses).not.toContain('open');
    expect(statuses).toContain('unavailable');
    expect(waits[0]).toBe(UNSUPPORTED_RETRY_MS);
  });

  it('asks the session to renew on 401 before trying again', async () => {
    const controller = new AbortController();
    const renewed = vi.fn();
    const fetchImpl = vi.fn(async () => {
      if (fetchImpl.mock.calls.length >= 2) controller.abort();
      return new Response('{}', { status: 401, headers: { 'Content-Type': 'application/problem+json' } });
    });
    await runEventStream({ organizationId: 't', onEvent: () => {}, onUnauthorized: renewed, fetch: fetchImpl as typeof fetch, sleep: async () => {} }, controller.signal);
    expect(renewed).toHaveBeenCalled();
  });

  it('backs off from the retry delay, doubling up to a minute', () => {
    expect(backoff(DEFAULT_RETRY_MS, 1)).toBe(5_000);
    expect(backoff(DEFAULT_RETRY_MS, 2)).toBe(10_000);
    expect(backoff(DEFAULT_RETRY_MS, 10)).toBe(60_000);
  });
});

describe('the polling fallback', () => {
  it('polls at the spec’s intervals only while the stream is not open', () => {
    expect(pollInterval('jobs', 'open')).toBe(false);
    expect(pollInterval('jobs', 'unavailable')).toBe(5_000);
    expect(pollInterval('jobHistory', 'connecting')).toBe(60_000);
    expect(pollInterval('campaigns', 'unavailable')).toBe(10_000);
    expect(pollInterval('workflows', 'unavailable')).toBe(10_000);
    expect(pollInterval('inbox', 'unavailable')).toBe(5 * 60_000);
    expect(FALLBACK_POLL_MS.jobs).toBe(5_000);
  });

  it('starts unavailable (so screens poll until the stream opens)', () => {
    expect(streamStatus()).toBe('unavailable');
  });
});

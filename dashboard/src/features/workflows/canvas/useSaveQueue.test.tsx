import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';

import { fakeServer, ok, problem } from '../../../test/fakeServer';
import type { Graph } from '../graph';
import { seedGraph } from './editor';
import { useSaveQueue } from './useSaveQueue';

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>;
}

const stored = (version: number) => ({ id: 'wf', name: 'W', version, nodes: [], edges: [], readablePromptStatus: 'done' });

describe('the save queue', () => {
  test('saves one at a time, each on the version the last save answered', async () => {
    let version = 1;
    let inFlight = 0;
    let maxInFlight = 0;
    const calls = fakeServer({
      'POST /v1/workflow/save': async ({ body }) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await new Promise((r) => setTimeout(r, 20));
        inFlight--;
        const sent = (body as { version: number }).version;
        if (sent !== version) return problem(409, 'conflict', 'stale');
        version++;
        return ok(stored(version));
      },
    });
    const { result } = renderHook(() => useSaveQueue('wf', 1), { wrapper });
    const g: Graph = seedGraph('inbound');
    act(() => result.current.schedule(g, { now: true }));
    act(() => result.current.schedule({ ...g }, { now: true }));
    act(() => result.current.schedule({ ...g }, { now: true }));
    await waitFor(() => expect(result.current.status).toBe('saved'));
    const saves = calls.filter((c) => c.path === '/v1/workflow/save').map((c) => (c.body as { version: number }).version);
    expect(maxInFlight).toBe(1);
    // the edits made during the first save go together in a second, on the new version
    expect(saves).toEqual([1, 2]);
  });

  test('a stale save stops the queue until the user chooses; keep mine saves on the stored version', async () => {
    let version = 5;
    const calls = fakeServer({
      'POST /v1/workflow/save': ({ body }) => {
        if ((body as { version: number }).version !== version) return problem(409, 'conflict', 'stale');
        version++;
        return ok(stored(version));
      },
      'GET /v1/workflow/wf': () => ok(stored(version)),
    });
    const { result } = renderHook(() => useSaveQueue('wf', 3), { wrapper });
    act(() => result.current.schedule(seedGraph('inbound'), { now: true }));
    await waitFor(() => expect(result.current.status).toBe('conflict'));
    act(() => result.current.schedule(seedGraph('inbound'), { now: true }));
    await new Promise((r) => setTimeout(r, 30));
    expect(calls.filter((c) => c.path === '/v1/workflow/save')).toHaveLength(1);
    await act(() => result.current.keepMine());
    await waitFor(() => expect(result.current.status).toBe('saved'));
    expect(version).toBe(6);
  });

  test("the conflict names the version the server stores now, and keep mine saves on it", async () => {
    let version = 8;
    const calls = fakeServer({
      'POST /v1/workflow/save': ({ body }) => {
        if ((body as { version: number }).version !== version)
          return new Response(JSON.stringify({ status: 409, code: 'conflict', title: 'Conflict', detail: 'stale', currentVersion: version }), {
            status: 409,
            headers: { 'Content-Type': 'application/problem+json' },
          });
        version++;
        return ok(stored(version));
      },
    });
    const { result } = renderHook(() => useSaveQueue('wf', 3), { wrapper });
    act(() => result.current.schedule(seedGraph('inbound'), { now: true }));
    await waitFor(() => expect(result.current.status).toBe('conflict'));
    expect(result.current.conflictVersion).toBe(8);
    await act(() => result.current.keepMine());
    await waitFor(() => expect(result.current.status).toBe('saved'));
    expect(calls.filter((c) => c.path === '/v1/workflow/save').map((c) => (c.body as { version: number }).version)).toEqual([3, 8]);
    expect(calls.some((c) => c.method === 'GET')).toBe(false);
    expect(result.current.conflictVersion).toBeUndefined();
  });
});

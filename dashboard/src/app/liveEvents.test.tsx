import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { getListCallLogsQueryKey } from '../api/gen/calls/calls';
import { getListInboxItemsQueryKey } from '../api/gen/inbox/inbox';
import type { Job } from '../api/gen/model';
import { historyQueryOptions, progressQueryKey } from '../features/runs/queries';
import { setStreamStatus, usePollInterval } from '../lib/events';
import { applyEvent } from './liveEvents';

function job(overrides: Partial<Job> = {}): Job {
  return {
    id: 'j1',
    type: 'workflow-run',
    workflowId: 'w1',
    organizationId: 't1',
    status: 'in-progress',
    progress: { total: 20, completed: 3, failed: 1, pending: 16, percent: 20 },
    triggeredBy: 'ada@example.com',
    isTest: false,
    startedAt: '2026-01-01T10:00:00Z',
    finishedAt: null,
    error: null,
    createdAt: '2026-01-01T10:00:00Z',
    updatedAt: '2026-01-01T10:00:05Z',
    ...overrides,
  };
}

const ev = (event: string, data: unknown) => ({ id: '1', event, data: JSON.stringify(data) });

describe('live events', () => {
  it('job.updated writes the job into its workflow’s panel and refreshes its history', async () => {
    const qc = new QueryClient();
    qc.setQueryData(progressQueryKey('w1'), job());
    const history = historyQueryOptions('w1', 1).queryKey;
    qc.setQueryData(history, { data: [], meta: {} });
    expect(await applyEvent(qc, ev('job.updated', job({ progress: { total: 20, completed: 19, failed: 1, pending: 0, percent: 100 }, status: 'success' })))).toBe('job');
    expect(qc.getQueryData<Job>(progressQueryKey('w1'))!.status).toBe('success');
    expect(qc.getQueryState(history)!.isInvalidated).toBe(true);
  });

  it('a test run does not replace the run in progress on the panel', async () => {
    const qc = new QueryClient();
    qc.setQueryData(progressQueryKey('w1'), job({ createdAt: '2026-01-01T10:00:00Z' }));
    await applyEvent(qc, ev('job.updated', job({ id: 't', isTest: true, createdAt: '2026-01-01T09:00:00Z' })));
    expect(qc.getQueryData<Job>(progressQueryKey('w1'))!.id).toBe('j1');
  });

  it('call.updated refreshes the call lists, and a finished call the inbox', async () => {
    const qc = new QueryClient();
    const calls = getListCallLogsQueryKey({ organizationId: 't1', page: 1, sizePerPage: 10 });
    const inbox = getListInboxItemsQueryKey({ organizationId: 't1' });
    qc.setQueryData(calls, { data: [] });
    qc.setQueryData(inbox, { data: [] });
    await applyEvent(qc, ev('call.updated', { id: 'c1', organizationId: 't1', callControlId: 'cc', endTime: null }));
    expect(qc.getQueryState(calls)!.isInvalidated).toBe(true);
    expect(qc.getQueryState(inbox)!.isInvalidated).toBe(false);
    await applyEvent(qc, ev('call.updated', { id: 'c1', organizationId: 't1', callControlId: 'cc', endTime: '2026-01-01T10:01:00Z' }));
    expect(qc.getQueryState(inbox)!.isInvalidated).toBe(true);
  });

  it('inbox.updated refreshes the inbox; reset refreshes everything; unknown or broken events change nothing', async () => {
    const qc = new QueryClient();
    const inbox = getListInboxItemsQueryKey({ organizationId: 't1' });
    qc.setQueryData(inbox, { data: [] });
    qc.setQueryData(progressQueryKey('w9'), job());
    expect(await applyEvent(qc, { id: '2', event: 'something.else', data: '{}' })).toBe('ignored');
    expect(await applyEvent(qc, { id: '2', event: 'job.updated', data: 'not json' })).toBe('ignored');
    expect(qc.getQueryState(progressQueryKey('w9'))!.isInvalidated).toBe(false);
    await applyEvent(qc, ev('inbox.updated', { id: 'i1' }));
    expect(qc.getQueryState(inbox)!.isInvalidated).toBe(true);
    expect(await applyEvent(qc, ev('reset', {}))).toBe('reset');
    expect(qc.getQueryState(progressQueryKey('w9'))!.isInvalidated).toBe(true);
  });

  it('a screen polls while the stream is closed and stops when it opens', async () => {
    vi.useFakeTimers();
    try {
      const fn = vi.fn(async () => 'x');
      function Poller() {
        const interval = usePollInterval('jobs');
        useQuery({ queryKey: progressQueryKey('poll'), queryFn: fn, refetchInterval: interval });
        return <span>{String(interval)}</span>;
      }
      const qc = new QueryClient();
      render(
        <QueryClientProvider client={qc}>
          <Poller />
        </QueryClientProvider>,
      );
      expect(screen.getByText('5000')).toBeInTheDocument();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(10_100);
      });
      expect(fn.mock.calls.length).toBe(3);
      act(() => setStreamStatus('open'));
      expect(screen.getByText('false')).toBeInTheDocument();
      await act(async () => {
        await vi.advanceTimersByTimeAsync(20_000);
      });
      expect(fn.mock.calls.length).toBe(3);
      act(() => setStreamStatus('unavailable'));
      await act(async () => {
        await vi.advanceTimersByTimeAsync(5_100);
      });
      expect(fn.mock.calls.length).toBe(4);
    } finally {
      vi.useRealTimers();
      setStreamStatus('unavailable');
    }
  });
});

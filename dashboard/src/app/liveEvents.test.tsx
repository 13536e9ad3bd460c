import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { getListAgentKnowledgeFilesQueryKey, getListAgentsQueryKey } from '../api/gen/agents/agents';
import { getGetCallLogQueryKey, getGetCallRecordingQueryKey, getGetCallStatisticsQueryKey, getGetCallTranscriptQueryKey, getListCallLogsQueryKey } from '../api/gen/calls/calls';
import { getListInboxItemsQueryKey } from '../api/gen/inbox/inbox';
import { getGetKnowledgeFileQueryKey, getListKnowledgeBasesQueryKey, getListKnowledgeFilesQueryKey, getSearchKnowledgeBaseQueryKey } from '../api/gen/knowledge-base/knowledge-base';
import type { Job } from '../api/gen/model';
import { campaignQueryOptions, campaignsQueryOptions } from '../features/campaigns/queries';
import { phoneNumbersQueryOptions } from '../features/phone-numbers/queries';
import { historyQueryOptions, progressQueryKey, runPreviewQueryOptions } from '../features/runs/queries';
import { campaignWorkflowsQueryOptions, csvQueryOptions, workflowQueryOptions, workflowsQueryOptions } from '../features/workflows/queries';
import { setStreamStatus, usePollInterval } from '../lib/events';
import { LIVE_EVENTS, applyEvent } from './liveEvents';

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

/** A client holding these queries, all fresh. */
function seeded(...keys: (readonly unknown[])[]): QueryClient {
  const qc = new QueryClient();
  for (const key of keys) qc.setQueryData(key, { data: [] });
  return qc;
}

/** Which of the keys the event left invalidated. */
function stale(qc: QueryClient, keys: Record<string, readonly unknown[]>): string[] {
  return Object.entries(keys)
    .filter(([, key]) => qc.getQueryState(key)?.isInvalidated)
    .map(([name]) => name);
}

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

  it('a finished run refreshes its workflow, its lists and its own Contacts tables, not another workflow’s', async () => {
    const keys = {
      contacts: csvQueryOptions('w1', 'n1', 2).queryKey,
      otherContacts: csvQueryOptions('w2', 'n1', 1).queryKey,
      workflow: workflowQueryOptions('w1').queryKey,
      otherWorkflow: workflowQueryOptions('w2').queryKey,
      workflows: workflowsQueryOptions('t1', 1).queryKey,
    };
    const qc = seeded(...Object.values(keys));
    await applyEvent(qc, ev('job.updated', job({ status: 'in-progress' })));
    expect(stale(qc, keys)).toEqual([]);
    await applyEvent(qc, ev('job.updated', job({ status: 'success' })));
    expect(stale(qc, keys)).toEqual(['contacts', 'workflow', 'workflows']);
  });

  it('a deleted job refreshes every workflow’s runs, previews and Contacts tables', async () => {
    const keys = {
      progress: progressQueryKey('w2'),
      history: historyQueryOptions('w2', 3).queryKey,
      preview: runPreviewQueryOptions('w2').queryKey,
      contacts: csvQueryOptions('w2', 'n1', 1).queryKey,
      workflows: workflowsQueryOptions('t1', 1).queryKey,
      calls: getListCallLogsQueryKey(),
    };
    const qc = seeded(...Object.values(keys));
    expect(await applyEvent(qc, ev('job.updated', { id: 'j1', deleted: true }))).toBe('job');
    expect(stale(qc, keys)).toEqual(['progress', 'history', 'preview', 'contacts', 'workflows']);
  });

  it('a deleted call refreshes every cache of calls, whatever its ids, and not the inbox', async () => {
    const keys = {
      list: getListCallLogsQueryKey({ organizationId: 't1', page: 2, sizePerPage: 10 }),
      call: getGetCallLogQueryKey('c1', { organizationId: 't1' }),
      transcript: getGetCallTranscriptQueryKey('cc1', { organizationId: 't1' }),
      recording: getGetCallRecordingQueryKey('c1', { organizationId: 't1' }),
      statistics: getGetCallStatisticsQueryKey('t1', {}),
      inbox: getListInboxItemsQueryKey({ organizationId: 't1' }),
    };
    const qc = seeded(...Object.values(keys));
    expect(await applyEvent(qc, ev('call.updated', { id: 'c1', deleted: true }))).toBe('call');
    expect(stale(qc, keys)).toEqual(['list', 'call', 'transcript', 'recording', 'statistics']);
  });

  it('campaign.updated refreshes the campaign, the campaign lists and its workflows, not the numbers', async () => {
    const keys = {
      campaign: campaignQueryOptions('k1').queryKey,
      otherCampaign: campaignQueryOptions('k2').queryKey,
      campaigns: campaignsQueryOptions('t1', 1, { status: 'all', name: '' }).queryKey,
      itsWorkflows: campaignWorkflowsQueryOptions('k1', 2).queryKey,
      otherWorkflows: campaignWorkflowsQueryOptions('k2', 1).queryKey,
      numbers: phoneNumbersQueryOptions('t1', 1).queryKey,
    };
    const qc = seeded(...Object.values(keys));
    expect(await applyEvent(qc, ev('campaign.updated', { id: 'k1', name: 'Spring' }))).toBe('campaign');
    expect(stale(qc, keys)).toEqual(['campaign', 'campaigns', 'itsWorkflows']);
  });

  it('knowledge.updated refreshes knowledge bases, their files, search and agents’ knowledge files, nothing else', async () => {
    const keys = {
      bases: getListKnowledgeBasesQueryKey('t1', { page: 1 }),
      files: getListKnowledgeFilesQueryKey('kb1', { organizationId: 't1', page: 2 }),
      file: getGetKnowledgeFileQueryKey('f1', { organizationId: 't1' }),
      search: getSearchKnowledgeBaseQueryKey({ organizationId: 't1', knowledgeBaseId: 'kb1', q: 'refunds' }),
      agentFiles: getListAgentKnowledgeFilesQueryKey('a1'),
      agents: getListAgentsQueryKey('t1'),
    };
    const qc = seeded(...Object.values(keys));
    expect(await applyEvent(qc, ev('knowledge.updated', { id: 'f1' }))).toBe('knowledge');
    expect(stale(qc, keys)).toEqual(['bases', 'files', 'file', 'search', 'agentFiles']);
  });

  it('answers each kind of the table by what it is about', async () => {
    const qc = new QueryClient();
    for (const [kind, rule] of Object.entries(LIVE_EVENTS)) expect(await applyEvent(qc, ev(kind, { id: 'x', deleted: true }))).toBe(rule.about);
    expect(await applyEvent(qc, ev('toString', {}))).toBe('ignored');
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

// What each event of the team's stream (lib/events.ts) changes in the dashboard's caches, and
// the hook the shell mounts once per team to keep the stream open.

import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import type { CallLog, Campaign, Job } from '../api/gen/model';
import { meQueryOptions } from '../features/auth/queries';
import { applyCall } from '../features/calls/queries';
import { invalidateCampaigns } from '../features/campaigns/queries';
import { invalidateInbox } from '../features/inbox/queries';
import { applyJob, isFinished } from '../features/runs/queries';
import { invalidateWorkflows } from '../features/workflows/queries';
import { publishEvent, runEventStream, setStreamStatus, type ServerEvent } from '../lib/events';

function parse(data: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Refreshes (or writes) the caches an event is about; answers what it did, for tests. */
export async function applyEvent(queryClient: QueryClient, event: ServerEvent): Promise<string> {
  if (event.event === 'reset') {
    // The server could not replay what was missed: everything may be stale.
    await queryClient.invalidateQueries();
    return 'reset';
  }
  const data = parse(event.data);
  if (!data) return 'ignored';
  const deleted = data['deleted'] === true;
  switch (event.event) {
    case 'job.updated': {
      if (deleted) {
        await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/v1/workflow/') });
        return 'job';
      }
      const job = data as unknown as Job;
      await applyJob(queryClient, job);
      if (isFinished(job) && job.type === 'workflow-run') {
        // A finished run changed its contacts' call status and the campaign's workflows list.
        await Promise.all([queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/v1/workflow/csv/') }), invalidateWorkflows(queryClient, job.workflowId)]);
      }
      return 'job';
    }
    case 'call.updated': {
      if (deleted) {
        await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/v1/call/') });
        return 'call';
      }
      const call = data as unknown as CallLog;
      await applyCall(queryClient, call);
      // Every finished call files an inbox item.
      if (call.endTime !== null) await invalidateInbox(queryClient);
      return 'call';
    }
    case 'inbox.updated':
      await invalidateInbox(queryClient, typeof data['id'] === 'string' ? data['id'] : undefined);
      return 'inbox';
    case 'campaign.updated': {
      const campaign = data as unknown as Campaign;
      await Promise.all([invalidateCampaigns(queryClient, campaign.id), invalidateWorkflows(queryClient, undefined, campaign.id)]);
      return 'campaign';
    }
    case 'knowledge.updated':
      await queryClient.invalidateQueries({ predicate: (q) => String(q.queryKey[0]).startsWith('/v1/campaigns/knowledge-base') || String(q.queryKey[0]).startsWith('/v1/agent/list/knowledge-file') });
      return 'knowledge';
    default:
      return 'ignored';
  }
}

/** Keeps the team's event stream open while the dashboard shows that team. */
export function useLiveEvents(organizationId: string | null | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!organizationId || typeof ReadableStream === 'undefined' || typeof TextDecoderStream === 'undefined') return;
    const controller = new AbortController();
    void runEventStream(
      {
        organizationId,
        onEvent: (event) => {
          publishEvent(event);
          void applyEvent(queryClient, event);
        },
        onStatus: setStreamStatus,
        // Reading the current user renews an expired session through the mutator.
        onUnauthorized: async () => {
          await queryClient.fetchQuery({ ...meQueryOptions(), staleTime: 0 }).catch(() => undefined);
        },
      },
      controller.signal,
    );
    return () => {
      controller.abort();
      setStreamStatus('unavailable');
    };
  }, [organizationId, queryClient]);
}

// What each event of the team's stream (lib/events.ts) changes in the dashboard's caches, in one
// table, and the hook the shell mounts once per team to keep the stream open. The caches are named
// by the features' query factories and the generated key helpers, never by a URL typed here.

import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';

import { getListAgentKnowledgeFilesQueryKey } from '../api/gen/agents/agents';
import {
  getGetCallLogQueryKey,
  getGetCallRecordingQueryKey,
  getGetCallStatisticsQueryKey,
  getGetCallTranscriptQueryKey,
  getListCallBookingsQueryKey,
  getListCallLogsQueryKey,
} from '../api/gen/calls/calls';
import { getGetKnowledgeFileQueryKey, getListKnowledgeBasesQueryKey, getListKnowledgeFilesQueryKey, getSearchKnowledgeBaseQueryKey } from '../api/gen/knowledge-base/knowledge-base';
import type { CallLog, Campaign, Job } from '../api/gen/model';
import { getPreviewWorkflowRunQueryKey } from '../api/gen/workflows/workflows';
import { meQueryOptions } from '../features/auth/queries';
import { applyCall } from '../features/calls/queries';
import { invalidateCampaigns } from '../features/campaigns/queries';
import { invalidateInbox } from '../features/inbox/queries';
import { applyJob, invalidateRuns, isFinished } from '../features/runs/queries';
import { invalidateContacts, invalidateWorkflows } from '../features/workflows/queries';
import { publishEvent, runEventStream, setStreamStatus, type ServerEvent } from '../lib/events';
import { madeBy, type KeyHelper } from '../lib/queryKeys';

/** An event's payload: the entity as it is now, or `{ id, deleted: true }` once it is gone. */
type EventData = Record<string, unknown>;

interface LiveEventRule {
  /** What the event is about; applyEvent answers it (tests read it). */
  about: string;
  /** Writes or refreshes the caches the event touches. */
  apply: (queryClient: QueryClient, data: EventData) => Promise<unknown>;
}

/** Every cached query these generated operations made, whatever its ids: a deleted entity's caches are not known by key. */
function every(queryClient: QueryClient, ...helpers: KeyHelper[]) {
  return queryClient.invalidateQueries({ predicate: madeBy(...helpers) });
}

const CALL_OPERATIONS: KeyHelper[] = [getListCallLogsQueryKey, getGetCallLogQueryKey, getGetCallTranscriptQueryKey, getGetCallRecordingQueryKey, getGetCallStatisticsQueryKey, getListCallBookingsQueryKey];
const KNOWLEDGE_OPERATIONS: KeyHelper[] = [getListKnowledgeBasesQueryKey, getListKnowledgeFilesQueryKey, getGetKnowledgeFileQueryKey, getSearchKnowledgeBaseQueryKey, getListAgentKnowledgeFilesQueryKey];

const deleted = (data: EventData) => data['deleted'] === true;
const id = (data: EventData) => (typeof data['id'] === 'string' ? data['id'] : undefined);

/** Event kind → the caches it touches. */
export const LIVE_EVENTS: Readonly<Record<string, LiveEventRule>> = {
  'job.updated': {
    about: 'job',
    apply: async (queryClient, data) => {
      if (deleted(data)) {
        // Which workflow it ran is gone with it: every workflow's runs, run previews and contacts.
        return Promise.all([invalidateRuns(queryClient), invalidateWorkflows(queryClient), invalidateContacts(queryClient), every(queryClient, getPreviewWorkflowRunQueryKey)]);
      }
      const job = data as unknown as Job;
      await applyJob(queryClient, job);
      // A finished run changed its contacts' call status and the campaign's workflows list.
      const finishedRun = isFinished(job) && job.type === 'workflow-run';
      return finishedRun ? Promise.all([invalidateContacts(queryClient, job.workflowId), invalidateWorkflows(queryClient, job.workflowId)]) : undefined;
    },
  },
  'call.updated': {
    about: 'call',
    apply: async (queryClient, data) => {
      if (deleted(data)) return every(queryClient, ...CALL_OPERATIONS);
      const call = data as unknown as CallLog;
      await applyCall(queryClient, call);
      // Every finished call files an inbox item.
      return call.endTime !== null ? invalidateInbox(queryClient) : undefined;
    },
  },
  'inbox.updated': {
    about: 'inbox',
    apply: (queryClient, data) => invalidateInbox(queryClient, id(data)),
  },
  'campaign.updated': {
    about: 'campaign',
    apply: (queryClient, data) => {
      const campaignId = (data as unknown as Pick<Campaign, 'id'>).id;
      return Promise.all([invalidateCampaigns(queryClient, campaignId), invalidateWorkflows(queryClient, undefined, campaignId)]);
    },
  },
  'knowledge.updated': {
    about: 'knowledge',
    apply: (queryClient) => every(queryClient, ...KNOWLEDGE_OPERATIONS),
  },
};

function parse(data: string): EventData | null {
  try {
    const value: unknown = JSON.parse(data);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as EventData) : null;
  } catch {
    return null;
  }
}

/** Refreshes (or writes) the caches an event is about; answers what it was about ('reset', 'ignored'), for tests. */
export async function applyEvent(queryClient: QueryClient, event: ServerEvent): Promise<string> {
  if (event.event === 'reset') {
    // The server could not replay what was missed: everything may be stale.
    await queryClient.invalidateQueries();
    return 'reset';
  }
  const rule = Object.hasOwn(LIVE_EVENTS, event.event) ? LIVE_EVENTS[event.event] : undefined;
  const data = parse(event.data);
  if (!rule || !data) return 'ignored';
  await rule.apply(queryClient, data);
  return rule.about;
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

// Calls: the team's call logs (10 a page, newest first), one call, its transcript and its
// recording's signed URL, and the calls per day. With the event stream open, `call.updated`
// refreshes them (app/liveEvents.ts); without it a page showing a call in progress polls.

import type { QueryClient } from '@tanstack/react-query';

import { isApiError } from '../../api/mutator';
import {
  getCallLog,
  getCallRecording,
  getCallStatistics,
  getCallTranscript,
  getGetCallLogQueryKey,
  getGetCallRecordingQueryKey,
  getGetCallStatisticsQueryKey,
  getGetCallTranscriptQueryKey,
  getListCallBookingsQueryKey,
  getListCallLogsQueryKey,
  listCallLogs,
} from '../../api/gen/calls/calls';
import type { CallLog, CallRecording, Transcript } from '../../api/gen/model';

export const CALLS_PAGE_SIZE = 10;
/** A transcript of a call in progress is read again this often (decision: turns arrive every few seconds). */
export const LIVE_TRANSCRIPT_MS = 2_000;

const CALL_LOGS_ROOT = [getListCallLogsQueryKey()[0]];

export function callLogsQueryOptions(organizationId: string, page: number) {
  const params = { organizationId, page, sizePerPage: CALLS_PAGE_SIZE };
  return {
    queryKey: getListCallLogsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listCallLogs(params, { signal }),
  };
}

export function callLogQueryOptions(organizationId: string, id: string) {
  const params = { organizationId };
  return {
    queryKey: getGetCallLogQueryKey(id, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getCallLog(id, params, { signal })).data,
  };
}

/** The transcript so far; null when the call has none (404: never answered). */
export function transcriptQueryOptions(organizationId: string, callControlId: string) {
  const params = { organizationId };
  return {
    queryKey: getGetCallTranscriptQueryKey(callControlId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Transcript | null> => {
      try {
        return (await getCallTranscript(callControlId, params, { signal })).data;
      } catch (e) {
        if (isApiError(e) && e.status === 404) return null;
        throw e;
      }
    },
  };
}

/** Where the recording is; null when the call has none ("No call recording exists"). */
export function recordingQueryOptions(organizationId: string, callLogId: string) {
  const params = { organizationId };
  return {
    queryKey: getGetCallRecordingQueryKey(callLogId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<CallRecording | null> => {
      try {
        return (await getCallRecording(callLogId, params, { signal })).data;
      } catch (e) {
        if (isApiError(e) && e.status === 404) return null;
        throw e;
      }
    },
    // The URL is signed for an hour: fetch a fresh one well before it expires.
    staleTime: 30 * 60_000,
  };
}

export function statisticsQueryOptions(organizationId: string, range: { startDate?: string; endDate?: string }) {
  const params = { ...(range.startDate ? { startDate: range.startDate } : {}), ...(range.endDate ? { endDate: range.endDate } : {}) };
  return {
    queryKey: getGetCallStatisticsQueryKey(organizationId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getCallStatistics(organizationId, params, { signal })).data,
  };
}

export function isLive(call: Pick<CallLog, 'endTime'>): boolean {
  return call.endTime === null;
}

/** A call changed: the lists (the storefront's bookings show their call's status), that call, its transcript and (once it ended) its recording and the counts. */
export function applyCall(queryClient: QueryClient, call: CallLog) {
  queryClient.setQueryData(getGetCallLogQueryKey(call.id, { organizationId: call.organizationId }), call);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: CALL_LOGS_ROOT }),
    queryClient.invalidateQueries({ queryKey: getListCallBookingsQueryKey().slice(0, 1) }),
    queryClient.invalidateQueries({ queryKey: getGetCallTranscriptQueryKey(call.callControlId).slice(0, 1) }),
    call.endTime !== null ? queryClient.invalidateQueries({ queryKey: getGetCallRecordingQueryKey(call.id).slice(0, 1) }) : undefined,
    queryClient.invalidateQueries({ queryKey: getGetCallStatisticsQueryKey(call.organizationId).slice(0, 1) }),
  ]);
}

export function invalidateCalls(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: CALL_LOGS_ROOT });
}

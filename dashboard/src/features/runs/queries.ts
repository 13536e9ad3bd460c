// Runs of a workflow: its current (or latest) job with fresh progress, its history (10 a page,
// refreshed every 60 s without the event stream), starting a run or a test run, and ending one.
// With the event stream open, `job.updated` writes the job into these caches (app/liveEvents.ts);
// without it the job is polled every 5 s while it is in progress (spec section 9).

import type { QueryClient } from '@tanstack/react-query';

import type { Job, ListWorkflowHistoryParams, TestRunWorkflowRequest } from '../../api/gen/model';
import { endWorkflowJob, exportJobCalls, getGetWorkflowProgressUrl, getListWorkflowHistoryQueryKey, getPreviewWorkflowRunQueryKey, getWorkflowProgress, listWorkflowHistory, previewWorkflowRun, runWorkflow, testRunWorkflow } from '../../api/gen/workflows/workflows';
import { madeBy } from '../../lib/queryKeys';

export const HISTORY_PAGE_SIZE = 10;

/** The key of a workflow's current job (the progress operation is a POST, so orval made no key). */
export function progressQueryKey(workflowId: string) {
  return [getGetWorkflowProgressUrl(workflowId)] as const;
}

function historyRoot(workflowId: string) {
  return getListWorkflowHistoryQueryKey(workflowId).slice(0, 1);
}

/** The workflow's job in progress, or else its latest; null when it has not run yet (the server's "no job yet"). */
export function progressQueryOptions(workflowId: string) {
  return {
    queryKey: progressQueryKey(workflowId),
    queryFn: async ({ signal }: { signal: AbortSignal }): Promise<Job | null> => (await getWorkflowProgress(workflowId, { signal })).data,
  };
}

/** What a run would do if it started now: whom it could call at once, and why the others would wait (the dialer's own rules, on the server). */
export function runPreviewQueryOptions(workflowId: string) {
  return {
    queryKey: getPreviewWorkflowRunQueryKey(workflowId),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await previewWorkflowRun(workflowId, { signal })).data,
    staleTime: 0,
  };
}

export function historyQueryOptions(workflowId: string, page: number) {
  const params: ListWorkflowHistoryParams = { page, sizePerPage: HISTORY_PAGE_SIZE, sortBy: 'createdAt', sortOrder: 'desc' };
  return {
    queryKey: getListWorkflowHistoryQueryKey(workflowId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listWorkflowHistory(workflowId, params, { signal }),
  };
}

/** A job as it is now: the workflow's current job and its history page are updated in place. */
export function applyJob(queryClient: QueryClient, job: Job) {
  const key = progressQueryKey(job.workflowId);
  const cached = queryClient.getQueryData<Job | null>(key);
  // A test run does not replace the panel's run in progress; any newer job does.
  if (!cached || cached.id === job.id || cached.status !== 'in-progress' || job.createdAt > cached.createdAt) {
    queryClient.setQueryData(key, job);
  }
  return queryClient.invalidateQueries({ queryKey: historyRoot(job.workflowId) });
}

/** Something about the workflow's runs changed: its current job and its history. */
export function invalidateRuns(queryClient: QueryClient, workflowId?: string) {
  if (workflowId) {
    return Promise.all([queryClient.invalidateQueries({ queryKey: progressQueryKey(workflowId) }), queryClient.invalidateQueries({ queryKey: historyRoot(workflowId) })]);
  }
  return queryClient.invalidateQueries({ predicate: madeBy(getListWorkflowHistoryQueryKey, getGetWorkflowProgressUrl) });
}

export function isFinished(job: Pick<Job, 'status'> | null | undefined): boolean {
  return !!job && job.status !== 'in-progress';
}

export function runMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ workflowId, organizationId, triggeredBy }: { workflowId: string; organizationId: string; triggeredBy?: string }) =>
      (await runWorkflow(workflowId, { organizationId, origin: window.location.origin, ...(triggeredBy ? { triggeredBy } : {}) })).data,
    onSuccess: (job: Job) => applyJob(queryClient, job),
  };
}

export function testRunMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: TestRunWorkflowRequest) => (await testRunWorkflow(body.workflowId, body)).data,
    onSuccess: (job: Job) => queryClient.invalidateQueries({ queryKey: historyRoot(job.workflowId) }),
  };
}

export function endJobMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ workflowId }: { workflowId: string }) => (await endWorkflowJob(workflowId)).data,
    onSuccess: (job: Job) => applyJob(queryClient, job),
  };
}

/** A run's calls as CSV (one row per call, the workflow's post-call fields as columns); it reads only, so it invalidates nothing. */
export function exportJobCallsMutationOptions() {
  return {
    mutationFn: (jobId: string) => exportJobCalls(jobId),
  };
}

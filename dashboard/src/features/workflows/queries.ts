// Workflows: one workflow (its graph and readable prompt, polled every 3 s while the prompt
// compiles), the team's list, templates by type, a campaign's workflows (5 a page, polled every
// 10 s), and the mutations, each refreshing what it changes.

import type { QueryClient } from '@tanstack/react-query';

import {
  createCampaignWorkflow,
  duplicateCampaignWorkflow,
  getListCampaignWorkflowsQueryKey,
  listCampaignWorkflows,
  toggleCampaignWorkflow,
} from '../../api/gen/campaigns/campaigns';
import type { CreateWorkflowRequest, SaveWorkflowRequest, Workflow, WorkflowType } from '../../api/gen/model';
import {
  createWorkflow,
  deleteWorkflow,
  getGetWorkflowCsvQueryKey,
  getGetWorkflowQueryKey,
  getListWorkflowsQueryKey,
  getListWorkflowTemplatesQueryKey,
  getWorkflow,
  getWorkflowCsv,
  listWorkflows,
  listWorkflowTemplates,
  saveWorkflow,
} from '../../api/gen/workflows/workflows';
import { invalidateCampaigns, invalidateWorkflows } from '../../lib/invalidate';
import { madeBy } from '../../lib/queryKeys';

export const WORKFLOWS_PAGE_SIZE = 10;
export const CAMPAIGN_WORKFLOWS_PAGE_SIZE = 5;
export const TEMPLATES_PAGE_SIZE = 6;
/** Spec §4: a readable prompt in progress is polled every 3 s. */
export const PROMPT_POLL_MS = 3_000;
/** Spec §9: a campaign's workflows are polled every 10 s. */
export const CAMPAIGN_WORKFLOWS_POLL_MS = 10_000;
/** Spec §4: contacts CSV status polls every 5 s while parsing, else every 10 s. */
export const CSV_POLL_PARSING_MS = 5_000;
export const CSV_POLL_MS = 10_000;
/** The Contacts node's table shows 10 rows a page. */
export const CONTACTS_TABLE_SIZE = 10;

export function workflowQueryOptions(id: string) {
  return {
    queryKey: getGetWorkflowQueryKey(id),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getWorkflow(id, undefined, { signal })).data,
    refetchInterval: (query: { state: { data?: Workflow | undefined } }) =>
      query.state.data?.readablePromptStatus === 'in-progress' ? PROMPT_POLL_MS : false,
  };
}

export function workflowsQueryOptions(organizationId: string, page: number) {
  const params = { organizationId, page, sizePerPage: WORKFLOWS_PAGE_SIZE };
  return {
    queryKey: getListWorkflowsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listWorkflows(params, { signal }),
  };
}

export function templatesQueryOptions(type: WorkflowType, page: number) {
  const params = { type, page, sizePerPage: TEMPLATES_PAGE_SIZE };
  return {
    queryKey: getListWorkflowTemplatesQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listWorkflowTemplates(params, { signal }),
  };
}

export function campaignWorkflowsQueryOptions(campaignId: string, page: number) {
  const params = { page, sizePerPage: CAMPAIGN_WORKFLOWS_PAGE_SIZE };
  return {
    queryKey: getListCampaignWorkflowsQueryKey(campaignId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listCampaignWorkflows(campaignId, params, { signal }),
  };
}

/** A workflow's node's CSV: node ids are unique only within their workflow, so the workflow is always named. */
export function csvQueryOptions(workflowId: string, nodeId: string, page: number) {
  const params = { workflowId, page, pageSize: CONTACTS_TABLE_SIZE };
  return {
    queryKey: getGetWorkflowCsvQueryKey(nodeId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => getWorkflowCsv(nodeId, params, { signal }),
  };
}

// Shared with the features whose changes reach workflows (lib/invalidate.ts).
export { invalidateWorkflows };

/** The Contacts tables (every page of every node's CSV) of one workflow, or of all of them: their rows' call status changed. */
export function invalidateContacts(queryClient: QueryClient, workflowId?: string) {
  const csv = madeBy(getGetWorkflowCsvQueryKey);
  return queryClient.invalidateQueries({
    predicate: (q) => csv(q) && (workflowId === undefined || (q.queryKey[1] as { workflowId?: string } | undefined)?.workflowId === workflowId),
  });
}

export function createWorkflowMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: CreateWorkflowRequest) => (await createWorkflow(body)).data,
    onSuccess: () => invalidateWorkflows(queryClient),
  };
}

export interface CampaignWorkflowInput {
  campaignId: string;
  name?: string;
  agentId?: string;
  workflowTemplate?: string;
  templateValues?: Record<string, string>;
}

export function createCampaignWorkflowMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ campaignId, ...body }: CampaignWorkflowInput) => (await createCampaignWorkflow(campaignId, body)).data,
    onSuccess: (_: unknown, { campaignId }: CampaignWorkflowInput) => invalidateWorkflows(queryClient, undefined, campaignId),
  };
}

export function toggleCampaignWorkflowMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ workflowId, campaignId, active }: { workflowId: string; campaignId: string; active: boolean }) =>
      (await toggleCampaignWorkflow(workflowId, { campaignId, active })).data,
    onSuccess: (_: unknown, { campaignId, workflowId }: { campaignId: string; workflowId: string }) =>
      Promise.all([invalidateWorkflows(queryClient, workflowId, campaignId), invalidateCampaigns(queryClient, campaignId)]),
  };
}

export function duplicateCampaignWorkflowMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ workflowId }: { workflowId: string; campaignId: string }) => (await duplicateCampaignWorkflow(workflowId)).data,
    onSuccess: (_: unknown, { campaignId }: { campaignId: string }) => invalidateWorkflows(queryClient, undefined, campaignId),
  };
}

export function deleteWorkflowMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id }: { id: string; campaignId?: string | null }) => deleteWorkflow(id),
    onSuccess: (_: unknown, { id, campaignId }: { id: string; campaignId?: string | null }) => {
      queryClient.removeQueries({ queryKey: getGetWorkflowQueryKey(id) });
      return invalidateWorkflows(queryClient, undefined, campaignId);
    },
  };
}

/** One save of the whole graph; the caller queues them one at a time (see canvas/useSaveQueue). */
export async function saveGraph(queryClient: QueryClient, body: SaveWorkflowRequest): Promise<Workflow> {
  const saved = (await saveWorkflow(body)).data;
  queryClient.setQueryData(getGetWorkflowQueryKey(saved.id), saved);
  return saved;
}

/** The stored workflow now (for "keep mine" after a conflict: its version to save on top of). */
export async function fetchWorkflow(queryClient: QueryClient, id: string): Promise<Workflow> {
  return queryClient.fetchQuery({ ...workflowQueryOptions(id), staleTime: 0 });
}

// Agent profiles: the team's list, one agent, its FAQ, its teaching audio, the campaign's
// agents, activation, and speaking its greeting.

import type { QueryClient } from '@tanstack/react-query';

import {
  activateAgent,
  createAgent,
  deactivateAgent,
  deleteAgent,
  getAgent,
  getGetAgentQueryKey,
  getListAgentAudioSummariesQueryKey,
  getListAgentsQueryKey,
  getListCampaignAgentsQueryKey,
  listAgentAudioSummaries,
  listAgents,
  listCampaignAgents,
  summarizeAgentAudio,
  synthesizeAgentSpeech,
  updateAgent,
  updateAgentFaq,
} from '../../api/gen/agents/agents';
import type { AgentFaq, AgentProfile, CreateAgentRequest, UpdateAgentRequest } from '../../api/gen/model';
import { invalidateCampaigns } from '../../lib/invalidate';
import { madeBy } from '../../lib/queryKeys';

export const AGENTS_PAGE_SIZE = 10;
/** How often a teaching audio file's summary is asked for while it is being made. */
export const SUMMARY_POLL_MS = 3_000;

const AGENT_LISTS = [getListAgentsQueryKey()[0]];

export function agentsQueryOptions(teamId: string, page: number, sizePerPage = AGENTS_PAGE_SIZE) {
  const params = { page, sizePerPage };
  return {
    queryKey: getListAgentsQueryKey(teamId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listAgents(teamId, params, { signal }),
  };
}

export function campaignAgentsQueryOptions(campaignId: string, organizationId: string, page: number) {
  const params = { organizationId, page, sizePerPage: AGENTS_PAGE_SIZE };
  return {
    queryKey: getListCampaignAgentsQueryKey(campaignId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listCampaignAgents(campaignId, params, { signal }),
  };
}

export function agentQueryOptions(id: string, organizationId: string) {
  const params = { organizationId };
  return {
    queryKey: getGetAgentQueryKey(id, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getAgent(id, params, { signal })).data,
  };
}

export function audioSummariesQueryOptions(organizationId: string, formIds: string[]) {
  const params = { organizationId, formIds };
  return {
    queryKey: getListAgentAudioSummariesQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listAgentAudioSummaries(params, { signal })).data,
  };
}

/** Every agent list, the agent itself and the campaigns (which carry agent summaries). */
export async function invalidateAgents(queryClient: QueryClient, agent?: Pick<AgentProfile, 'id' | 'organizationId'>) {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: AGENT_LISTS }),
    queryClient.invalidateQueries({ predicate: madeBy(getListCampaignAgentsQueryKey) }),
    agent ? queryClient.invalidateQueries({ queryKey: getGetAgentQueryKey(agent.id) }) : undefined,
    invalidateCampaigns(queryClient),
  ]);
}

function storeAgent(queryClient: QueryClient, agent: AgentProfile) {
  queryClient.setQueryData(getGetAgentQueryKey(agent.id, { organizationId: agent.organizationId }), agent);
}

export function createAgentMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: CreateAgentRequest) => (await createAgent(body)).data,
    onSuccess: async (agent: AgentProfile) => {
      storeAgent(queryClient, agent);
      await invalidateAgents(queryClient);
    },
  };
}

export function updateAgentMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, body }: { id: string; body: UpdateAgentRequest }) => (await updateAgent(id, body)).data,
    onSuccess: async (agent: AgentProfile) => {
      storeAgent(queryClient, agent);
      await invalidateAgents(queryClient);
    },
  };
}

export function saveFaqMutationOptions(queryClient: QueryClient) {
  return {
    // The list is saved whole (clear: true): a question removed or renumbered must not linger.
    mutationFn: async ({ id, organizationId, faq }: { id: string; organizationId: string; faq: AgentFaq }) => (await updateAgentFaq(id, { faq, organizationId, clear: true })).data,
    onSuccess: (agent: AgentProfile) => storeAgent(queryClient, agent),
  };
}

export function deleteAgentMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, organizationId }: { id: string; organizationId: string }) => (await deleteAgent(id, { organizationId })).data,
    onSuccess: async (_r: unknown, { id }: { id: string }) => {
      queryClient.removeQueries({ queryKey: getGetAgentQueryKey(id) });
      await invalidateAgents(queryClient);
    },
  };
}

export function setAgentActiveMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, organizationId, active }: { id: string; organizationId: string; active: boolean }) =>
      (await (active ? activateAgent(id, { organizationId }) : deactivateAgent(id, { organizationId }))).data,
    onSuccess: async (agent: AgentProfile) => {
      storeAgent(queryClient, agent);
      await invalidateAgents(queryClient);
    },
  };
}

export function addTeachingAudioMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ agentId, organizationId, url, fileName }: { agentId: string; organizationId: string; url: string; fileName: string }) =>
      (await summarizeAgentAudio({ url, fileName }, { agentId, organizationId })).data,
    onSuccess: (_f: unknown, { agentId }: { agentId: string }) => queryClient.invalidateQueries({ queryKey: getGetAgentQueryKey(agentId) }),
  };
}

/** Speaks `text` (or the agent's saved greeting) and answers the MP3's bytes as base64. */
export async function speak(params: { organizationId: string; agentProfileId?: string; text?: string; voiceId?: string; voicePresetId?: string }): Promise<string> {
  const response = await synthesizeAgentSpeech(params);
  return response.data.audio;
}

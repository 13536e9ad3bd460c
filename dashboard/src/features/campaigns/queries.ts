// Campaigns: the filtered list (5 a page, polled every 10 s), one campaign, the mutations (each
// refreshing what it changes), and the count of active campaigns Home shows.

import type { QueryClient } from '@tanstack/react-query';

import {
  createCampaign,
  deleteCampaign,
  duplicateCampaign,
  getCampaign,
  getGetCampaignQueryKey,
  getListCampaignPhoneNumberAssignmentsQueryKey,
  getListCampaignsQueryKey,
  listCampaignPhoneNumberAssignments,
  listCampaigns,
  updateCampaign,
} from '../../api/gen/campaigns/campaigns';
import type { CreateCampaignRequest, UpdateCampaignRequest } from '../../api/gen/model';
import { invalidateCampaigns, invalidatePhoneNumbers } from '../../lib/invalidate';
import { filterParams, type CampaignFilters } from './filters';

export const CAMPAIGNS_PAGE_SIZE = 5;
/** Spec section 9: the campaign list is polled every 10 s. */
export const CAMPAIGNS_POLL_MS = 10_000;

export function campaignsQueryOptions(organizationId: string, page: number, filters: CampaignFilters) {
  const params = { organizationId, page, sizePerPage: CAMPAIGNS_PAGE_SIZE, ...filterParams(filters) };
  return {
    queryKey: getListCampaignsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listCampaigns(params, { signal }),
  };
}

export function campaignQueryOptions(id: string) {
  return {
    queryKey: getGetCampaignQueryKey(id),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getCampaign(id, { signal })).data,
  };
}

/** Whether other inbound campaigns answer a number (limit 2: the one being edited may be one of them). */
export function inboundAssignmentsQueryOptions(phoneNumberId: string) {
  const params = { limit: 2, campaignType: 'inbound' as const };
  return {
    queryKey: getListCampaignPhoneNumberAssignmentsQueryKey(phoneNumberId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listCampaignPhoneNumberAssignments(phoneNumberId, params, { signal }),
  };
}

// Shared with the features whose changes reach campaigns (lib/invalidate.ts).
export { invalidateCampaigns };

export function createCampaignMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: CreateCampaignRequest) => (await createCampaign(body)).data,
    onSuccess: () => invalidateCampaigns(queryClient),
  };
}

export function updateCampaignMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, body }: { id: string; body: UpdateCampaignRequest }) => (await updateCampaign(id, body)).data,
    onSuccess: async (campaign: { id: string }, { body }: { body: UpdateCampaignRequest }) => {
      queryClient.setQueryData(getGetCampaignQueryKey(campaign.id), campaign);
      await invalidateCampaigns(queryClient, campaign.id);
      // A number's assignment shows on the phone numbers screen too.
      if ('phoneNumberId' in body) await invalidatePhoneNumbers(queryClient);
    },
  };
}

export function deleteCampaignMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (id: string) => (await deleteCampaign(id)).data,
    onSuccess: async (_r: unknown, id: string) => {
      queryClient.removeQueries({ queryKey: getGetCampaignQueryKey(id) });
      await Promise.all([invalidateCampaigns(queryClient), invalidatePhoneNumbers(queryClient)]);
    },
  };
}

export function duplicateCampaignMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (id: string) => (await duplicateCampaign(id)).data,
    onSuccess: () => invalidateCampaigns(queryClient),
  };
}

/** How many of the team's campaigns are active (Home): one row asked for, the total read from the page meta. */
export function activeCampaignCountQueryOptions(organizationId: string) {
  const params = { organizationId, status: 'active' as const, page: 1, sizePerPage: 1 };
  return {
    queryKey: getListCampaignsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listCampaigns(params, { signal })).meta.totalSize,
  };
}

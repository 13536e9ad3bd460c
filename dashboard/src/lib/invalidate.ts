// The caches of the resources whose changes show on more than one feature's screens: a campaign's
// number shows on the phone numbers screen, pairing a number with an agent makes or changes a
// workflow, toggling a campaign's workflow changes the campaign, and the live events (app/)
// refresh all three. Each is built from the generated key helpers; the features' queries.ts
// re-export them, so features reach each other's caches through here instead of importing each
// other (which made campaigns → phone-numbers → workflows → campaigns a cycle).

import type { QueryClient } from '@tanstack/react-query';

import { getGetCampaignQueryKey, getListCampaignsQueryKey, getListCampaignWorkflowsQueryKey } from '../api/gen/campaigns/campaigns';
import { getListPhoneNumbersQueryKey } from '../api/gen/phone/phone';
import { getGetWorkflowQueryKey, getListWorkflowsQueryKey } from '../api/gen/workflows/workflows';

/** Every campaign list, and the campaign when its id is given: something about campaigns changed. */
export function invalidateCampaigns(queryClient: QueryClient, id?: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: getListCampaignsQueryKey().slice(0, 1) }),
    id ? queryClient.invalidateQueries({ queryKey: getGetCampaignQueryKey(id) }) : undefined,
  ]);
}

/** Every page of the team's phone numbers. */
export function invalidatePhoneNumbers(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: getListPhoneNumbersQueryKey().slice(0, 1) });
}

/** The workflow lists, the workflow when its id is given, and a campaign's workflows when its campaign is. */
export function invalidateWorkflows(queryClient: QueryClient, id?: string, campaignId?: string | null) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: getListWorkflowsQueryKey().slice(0, 1) }),
    id ? queryClient.invalidateQueries({ queryKey: getGetWorkflowQueryKey(id) }) : undefined,
    campaignId ? queryClient.invalidateQueries({ queryKey: getListCampaignWorkflowsQueryKey(campaignId).slice(0, 1) }) : undefined,
  ]);
}

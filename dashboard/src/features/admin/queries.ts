import type { QueryClient } from '@tanstack/react-query';

import {
  getListAdminMailQueryKey,
  grantAdminOrganizationCredits,
  getSearchAdminUsersOrganizationsQueryKey,
  listAdminMail,
  searchAdminUsersOrganizations,
  updateAdminOrganizationLevel,
  updateAdminOrganizationTier,
} from '../../api/gen/admin/admin';
import { getGetTeamSubscriptionCreditsQueryKey } from '../../api/gen/team/team';
import type { SubscriptionTier, VerificationLevel } from '../../api/gen/model';

const SEARCH_ROOT = [getSearchAdminUsersOrganizationsQueryKey()[0]];
const MAIL_ROOT = [getListAdminMailQueryKey()[0]];

export const MAIL_PAGE_SIZE = 20;

export function adminSearchQueryOptions(searchEmail: string, page: number) {
  const params = { page, ...(searchEmail ? { searchEmail } : {}) };
  return {
    queryKey: getSearchAdminUsersOrganizationsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => searchAdminUsersOrganizations(params, { signal }),
  };
}

/** The server's outbox, newest first, 20 a page; only the messages to `recipient` when given. */
export function adminMailQueryOptions(recipient: string, page: number) {
  const params = { page, sizePerPage: MAIL_PAGE_SIZE, ...(recipient ? { recipient } : {}) };
  return {
    queryKey: getListAdminMailQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listAdminMail(params, { signal }),
  };
}

export function updateLevelMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (p: { organizationId: string; verificationLevel: VerificationLevel }) => (await updateAdminOrganizationLevel(p)).data,
    // The team's owner is told of the new level by e-mail, which lands in the outbox.
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: SEARCH_ROOT }), queryClient.invalidateQueries({ queryKey: MAIL_ROOT })]),
  };
}

export function updateTierMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (p: { organizationId: string; subscriptionTier: SubscriptionTier }) => (await updateAdminOrganizationTier(p)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEARCH_ROOT }),
  };
}

/** Adds credits to a team; answers the team with its new balance. */
export function grantCreditsMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (p: { organizationId: string; credits: number }) => (await grantAdminOrganizationCredits(p)).data,
    // The team's credit balance, where this browser shows it (the admin's own team), is read again.
    onSuccess: (_: unknown, p: { organizationId: string }) =>
      queryClient.invalidateQueries({ queryKey: getGetTeamSubscriptionCreditsQueryKey({ organizationId: p.organizationId }) }),
  };
}

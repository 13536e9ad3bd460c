import type { QueryClient } from '@tanstack/react-query';

import {
  getSearchAdminUsersOrganizationsQueryKey,
  searchAdminUsersOrganizations,
  updateAdminOrganizationLevel,
  updateAdminOrganizationTier,
} from '../../api/gen/admin/admin';
import type { SubscriptionTier, VerificationLevel } from '../../api/gen/model';

const SEARCH_ROOT = [getSearchAdminUsersOrganizationsQueryKey()[0]];

export function adminSearchQueryOptions(searchEmail: string, page: number) {
  const params = { page, ...(searchEmail ? { searchEmail } : {}) };
  return {
    queryKey: getSearchAdminUsersOrganizationsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => searchAdminUsersOrganizations(params, { signal }),
  };
}

export function updateLevelMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (p: { organizationId: string; verificationLevel: VerificationLevel }) => (await updateAdminOrganizationLevel(p)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEARCH_ROOT }),
  };
}

export function updateTierMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (p: { organizationId: string; subscriptionTier: SubscriptionTier }) => (await updateAdminOrganizationTier(p)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: SEARCH_ROOT }),
  };
}

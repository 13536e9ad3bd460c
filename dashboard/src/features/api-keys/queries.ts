import type { QueryClient } from '@tanstack/react-query';

import type { AssignableTeamRole } from '../../api/gen/model';
import { createTeamApiKey, deleteTeamApiKey, getListTeamApiKeysQueryKey, listTeamApiKeys } from '../../api/gen/team/team';

export function apiKeysQueryOptions(organizationId: string) {
  return {
    queryKey: getListTeamApiKeysQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listTeamApiKeys({ organizationId }, { signal })).data,
  };
}

/** Refreshes a team's key list: a key was made or deleted, or its maker was demoted or removed. */
export function invalidateApiKeys(queryClient: QueryClient, organizationId: string) {
  return queryClient.invalidateQueries({ queryKey: getListTeamApiKeysQueryKey({ organizationId }) });
}

export function createApiKeyMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; name: string; role: AssignableTeamRole }) => (await createTeamApiKey(body)).data,
    onSuccess: (_key: unknown, body: { organizationId: string }) => invalidateApiKeys(queryClient, body.organizationId),
  };
}

export function deleteApiKeyMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (params: { id: string; organizationId: string }) => (await deleteTeamApiKey(params.id, { organizationId: params.organizationId })).data,
    onSuccess: (_r: unknown, params: { organizationId: string }) => invalidateApiKeys(queryClient, params.organizationId),
  };
}

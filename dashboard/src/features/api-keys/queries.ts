import type { QueryClient } from '@tanstack/react-query';

import type { AssignableTeamRole } from '../../api/gen/model';
import { createTeamApiKey, deleteTeamApiKey, getListTeamApiKeysQueryKey, listTeamApiKeys } from '../../api/gen/team/team';

export function apiKeysQueryOptions(organizationId: string) {
  return {
    queryKey: getListTeamApiKeysQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listTeamApiKeys({ organizationId }, { signal })).data,
  };
}

export function createApiKeyMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; name: string; role: AssignableTeamRole }) => (await createTeamApiKey(body)).data,
    onSuccess: (_key: unknown, body: { organizationId: string }) => queryClient.invalidateQueries({ queryKey: getListTeamApiKeysQueryKey({ organizationId: body.organizationId }) }),
  };
}

export function deleteApiKeyMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (params: { id: string; organizationId: string }) => (await deleteTeamApiKey(params.id, { organizationId: params.organizationId })).data,
    onSuccess: (_r: unknown, params: { organizationId: string }) => queryClient.invalidateQueries({ queryKey: getListTeamApiKeysQueryKey({ organizationId: params.organizationId }) }),
  };
}

import type { QueryClient } from '@tanstack/react-query';

import type { ApiKey, AssignableTeamRole } from '../../api/gen/model';
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

interface KeyDeletion {
  id: string;
  organizationId: string;
}

export function deleteApiKeyMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (params: KeyDeletion) => (await deleteTeamApiKey(params.id, { organizationId: params.organizationId })).data,
    // The key leaves the list at once; it comes back if the server refuses.
    onMutate: async (params: KeyDeletion): Promise<{ previous: ApiKey[] | undefined }> => {
      const queryKey = getListTeamApiKeysQueryKey({ organizationId: params.organizationId });
      await queryClient.cancelQueries({ queryKey });
      const previous = queryClient.getQueryData<ApiKey[]>(queryKey);
      queryClient.setQueryData<ApiKey[]>(queryKey, (old) => old?.filter((k) => k.id !== params.id));
      return { previous };
    },
    onError: (_error: unknown, params: KeyDeletion, context: { previous: ApiKey[] | undefined } | undefined) => {
      if (context?.previous) queryClient.setQueryData(getListTeamApiKeysQueryKey({ organizationId: params.organizationId }), context.previous);
    },
    onSettled: (_r: unknown, _e: unknown, params: KeyDeletion) => invalidateApiKeys(queryClient, params.organizationId),
  };
}

// Voices: the platform's presets (9 a page, a 3x3 grid) and the team's custom voices.

import type { QueryClient } from '@tanstack/react-query';

import type { CreateVoiceProfileRequest } from '../../api/gen/model';
import { createVoiceProfile, deleteVoiceProfile, getListVoicePresetsQueryKey, getListVoiceProfilesQueryKey, listVoicePresets, listVoiceProfiles } from '../../api/gen/voice/voice';

export const PRESETS_PAGE_SIZE = 9;
export const CUSTOM_VOICES_PAGE_SIZE = 10;

export function presetsQueryOptions(page: number, sizePerPage = PRESETS_PAGE_SIZE) {
  const params = { page, sizePerPage };
  return {
    queryKey: getListVoicePresetsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listVoicePresets(params, { signal }),
    staleTime: 10 * 60_000,
  };
}

export function customVoicesQueryOptions(organizationId: string, page: number, sizePerPage = CUSTOM_VOICES_PAGE_SIZE) {
  const params = { page, sizePerPage };
  return {
    queryKey: getListVoiceProfilesQueryKey(organizationId, params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listVoiceProfiles(organizationId, params, { signal }),
  };
}

function invalidateCustomVoices(queryClient: QueryClient, organizationId: string) {
  return queryClient.invalidateQueries({ queryKey: getListVoiceProfilesQueryKey(organizationId) });
}

export function createVoiceMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: CreateVoiceProfileRequest) => (await createVoiceProfile(body)).data,
    onSuccess: (_v: unknown, body: CreateVoiceProfileRequest) => invalidateCustomVoices(queryClient, body.organizationId),
  };
}

export function deleteVoiceMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, organizationId }: { id: string; organizationId: string }) => (await deleteVoiceProfile(id, { organizationId })).data,
    onSuccess: (_v: unknown, { organizationId }: { organizationId: string }) => invalidateCustomVoices(queryClient, organizationId),
  };
}

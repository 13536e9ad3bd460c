// Phone numbers: the team's numbers (10 a page), the search for numbers on sale, buying,
// verifying a number the team owns elsewhere, releasing, and pairing a number with an agent.

import type { QueryClient } from '@tanstack/react-query';

import { setAgentCallConfig } from '../../api/gen/agents/agents';
import type { PhoneVerificationMethod, PhoneVerificationStatus, SearchAvailablePhoneNumbersParams } from '../../api/gen/model';
import { createPhoneNumberSubscriptionPaymentIntent } from '../../api/gen/payments/payments';
import {
  deletePhoneNumber,
  getListPhoneNumbersQueryKey,
  getListSupportedCountriesQueryKey,
  getListVerifiedPhoneNumbersQueryKey,
  getSearchAvailablePhoneNumbersQueryKey,
  listPhoneNumbers,
  listSupportedCountries,
  listVerifiedPhoneNumbers,
  requestPhoneNumberVerification,
  searchAvailablePhoneNumbers,
  verifyPhoneNumber,
} from '../../api/gen/phone/phone';
import { invalidatePhoneNumbers, invalidateWorkflows } from '../../lib/invalidate';

export const PHONE_NUMBERS_PAGE_SIZE = 10;
/** Spec section 9: the default buy filter. */
export const DEFAULT_SEARCH = { countryCode: 'US', type: 'local', areaCode: '', limit: 20 } as const;
/** Spec section 9: verifications are polled every 8 s while a code is out, else every 10 minutes. */
export const VERIFYING_POLL_MS = 8_000;
export const IDLE_POLL_MS = 600_000;

export function phoneNumbersQueryOptions(organizationId: string, page: number, sizePerPage = PHONE_NUMBERS_PAGE_SIZE) {
  const params = { organizationId, page, sizePerPage };
  return {
    queryKey: getListPhoneNumbersQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listPhoneNumbers(params, { signal }),
  };
}

// Shared with the features whose changes reach the numbers screen (lib/invalidate.ts).
export { invalidatePhoneNumbers };

export function supportedCountriesQueryOptions() {
  return {
    queryKey: getListSupportedCountriesQueryKey(),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listSupportedCountries({ signal })).data,
    staleTime: Infinity,
  };
}

export function availableNumbersQueryOptions(params: SearchAvailablePhoneNumbersParams) {
  return {
    queryKey: getSearchAvailablePhoneNumbersQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await searchAvailablePhoneNumbers(params, { signal })).data,
  };
}

/** How often to look at the verifications: fast while one waits for its code. */
export function verificationPollInterval(statuses: readonly PhoneVerificationStatus[] | undefined): number {
  return statuses?.includes('pending') ? VERIFYING_POLL_MS : IDLE_POLL_MS;
}

export function verificationsQueryOptions(organizationId: string) {
  return {
    queryKey: getListVerifiedPhoneNumbersQueryKey(organizationId),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listVerifiedPhoneNumbers(organizationId, { signal })).data,
  };
}

export function buyNumberMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; phoneNumber: string; originUrl: string }) => (await createPhoneNumberSubscriptionPaymentIntent(body)).data,
    onSuccess: () => Promise.all([invalidatePhoneNumbers(queryClient), queryClient.invalidateQueries({ queryKey: [getSearchAvailablePhoneNumbersQueryKey()[0]] })]),
  };
}

export function releaseNumberMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ id, organizationId }: { id: string; organizationId: string }) => (await deletePhoneNumber(id, { organizationId })).data,
    onSuccess: () => invalidatePhoneNumbers(queryClient),
  };
}

function invalidateVerifications(queryClient: QueryClient, organizationId: string) {
  return queryClient.invalidateQueries({ queryKey: getListVerifiedPhoneNumbersQueryKey(organizationId) });
}

export function requestVerificationMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; phoneNumber: string; method: PhoneVerificationMethod }) => (await requestPhoneNumberVerification(body)).data,
    onSuccess: (_v: unknown, body: { organizationId: string }) => invalidateVerifications(queryClient, body.organizationId),
  };
}

export function verifyNumberMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; phoneNumber: string; code: string }) => (await verifyPhoneNumber(body)).data,
    onSettled: (_v: unknown, _e: unknown, body: { organizationId: string }) => Promise.all([invalidateVerifications(queryClient, body.organizationId), invalidatePhoneNumbers(queryClient)]),
  };
}

export function pairNumberMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; phoneNumberId: string; agentId: string }) => (await setAgentCallConfig(body)).data,
    // The pairing gives the number's inbound workflow the agent, or makes one.
    onSuccess: (config: { workflowId?: string }) => Promise.all([invalidatePhoneNumbers(queryClient), invalidateWorkflows(queryClient, config.workflowId)]),
  };
}

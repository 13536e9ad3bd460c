import type { QueryClient } from '@tanstack/react-query';

import type { BillingAddress, BillingPortalFlowType, PaidSubscriptionTier } from '../../api/gen/model';
import {
  createCreditsPaymentIntent,
  createTierSubscriptionPaymentIntent,
  getListTiersQueryKey,
  getSubscriptionManagementLink,
  listTiers,
  getListPhoneNumberSubscriptionsQueryKey,
  listPhoneNumberSubscriptions,
  updatePaymentIntentStatus,
} from '../../api/gen/payments/payments';
import {
  getGetTeamBillingAddressQueryKey,
  getGetTeamCostsUsageQueryKey,
  getGetTeamSubscriptionCreditsQueryKey,
  getGetTeamSubscriptionStatusQueryKey,
  getTeamBillingAddress,
  getTeamCostsUsage,
  getTeamSubscriptionCredits,
  getTeamSubscriptionStatus,
  updateTeamBillingAddress,
} from '../../api/gen/team/team';

/** Phone-number subscriptions change once a month at most: kept 10 minutes (spec). */
export const PHONE_SUBSCRIPTIONS_STALE_MS = 10 * 60 * 1000;

/** The tier catalogue changes only when the server is reconfigured: kept an hour. */
export function tierCatalogQueryOptions() {
  return {
    queryKey: getListTiersQueryKey(),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listTiers({ signal })).data,
    staleTime: 60 * 60 * 1000,
  };
}

export function creditsQueryOptions(organizationId: string) {
  return {
    queryKey: getGetTeamSubscriptionCreditsQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getTeamSubscriptionCredits({ organizationId }, { signal })).data,
  };
}

export function subscriptionStatusQueryOptions(organizationId: string) {
  return {
    queryKey: getGetTeamSubscriptionStatusQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getTeamSubscriptionStatus({ organizationId }, { signal })).data,
  };
}

export function billingAddressQueryOptions(organizationId: string) {
  return {
    queryKey: getGetTeamBillingAddressQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getTeamBillingAddress({ organizationId }, { signal })).data,
  };
}

export function costsUsageQueryOptions(organizationId: string, month: number, year: number) {
  return {
    queryKey: getGetTeamCostsUsageQueryKey(organizationId, { month, year }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getTeamCostsUsage(organizationId, { month, year }, { signal })).data,
  };
}

export function phoneSubscriptionsQueryOptions(organizationId: string, page = 1) {
  const params = { organizationId, page, sizePerPage: 10 };
  return {
    queryKey: getListPhoneNumberSubscriptionsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => await listPhoneNumberSubscriptions(params, { signal }),
    staleTime: PHONE_SUBSCRIPTIONS_STALE_MS,
    gcTime: PHONE_SUBSCRIPTIONS_STALE_MS,
  };
}

export async function buyCredits(organizationId: string, credits: number, originUrl: string) {
  return (await createCreditsPaymentIntent({ organizationId, credits, originUrl })).data;
}

export async function subscribeTier(organizationId: string, targetTierType: PaidSubscriptionTier, originUrl: string, trialPeriodCode?: string) {
  return (await createTierSubscriptionPaymentIntent({ organizationId, targetTierType, originUrl, intervalType: 'monthly', ...(trialPeriodCode ? { trialPeriodCode } : {}) })).data;
}

export async function portalLink(organizationId: string, flowType?: BillingPortalFlowType) {
  return (await getSubscriptionManagementLink({ organizationId, ...(flowType ? { flowType } : {}) })).data;
}

/** Tells the server the person left the checkout (the server believes "succeeded" only from Stripe). */
export async function reportCancelled(dbPaymentIntentId: string) {
  return (await updatePaymentIntentStatus({ dbPaymentIntentId, status: 'cancelled' })).data;
}

/**
 * Saving the address is abortable (spec): a new save cancels the one still on its way, and
 * `abort()` cancels it when the form goes away.
 */
export function saveAddressMutationOptions(queryClient: QueryClient) {
  let inFlight: AbortController | null = null;
  return {
    abort: () => inFlight?.abort(),
    mutationFn: async (body: { organizationId: string; billingAddress: BillingAddress }) => {
      inFlight?.abort();
      const controller = new AbortController();
      inFlight = controller;
      try {
        return (await updateTeamBillingAddress(body, { signal: controller.signal })).data;
      } finally {
        if (inFlight === controller) inFlight = null;
      }
    },
    onSuccess: (saved: Awaited<ReturnType<typeof updateTeamBillingAddress>>['data'], body: { organizationId: string }) =>
      queryClient.setQueryData(getGetTeamBillingAddressQueryKey({ organizationId: body.organizationId }), saved),
  };
}

/** After a payment: the balance, the tier and the team's subscription read again. */
export function invalidateBilling(queryClient: QueryClient, organizationId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: getGetTeamSubscriptionCreditsQueryKey({ organizationId }) }),
    queryClient.invalidateQueries({ queryKey: getGetTeamSubscriptionStatusQueryKey({ organizationId }) }),
  ]);
}

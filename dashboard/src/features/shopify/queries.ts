// The storefront widget: which outbound workflow it starts (configureWorkflowShopify), the
// snippet a merchant pastes into the theme, and the calls shoppers asked for (listCallBookings,
// 10 a page, newest first; refreshed with the calls, as a booked call moves on).

import type { QueryClient } from '@tanstack/react-query';

import { getListCallBookingsQueryKey, listCallBookings } from '../../api/gen/calls/calls';
import { configureWorkflowShopify, getListWorkflowsQueryKey, listWorkflows } from '../../api/gen/workflows/workflows';

export const BOOKINGS_PAGE_SIZE = 10;
/** Bookings whose call is not over are read again this often (the spec's call-log pace is not shown; decision). */
export const BOOKINGS_LIVE_MS = 10_000;

export function bookingsQueryOptions(organizationId: string, page: number) {
  const params = { organizationId, page, sizePerPage: BOOKINGS_PAGE_SIZE };
  return {
    queryKey: getListCallBookingsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listCallBookings(params, { signal }),
  };
}

/** The contract's largest page: a team's outbound workflows for the picker. */
const PICKER_SIZE = 100;

export function outboundWorkflowsQueryOptions(organizationId: string) {
  const params = { organizationId, page: 1, sizePerPage: PICKER_SIZE, workflowType: 'outbound' as const };
  return {
    queryKey: getListWorkflowsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listWorkflows(params, { signal })).data,
  };
}

export function attachShopifyMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; workflowId: string }) => (await configureWorkflowShopify(body)).data,
    // Attaching one detaches the previous one: every workflow list may have changed.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: getListWorkflowsQueryKey().slice(0, 1) }),
  };
}

/** The tag to paste into the theme: the server's widget with the team's publishable key. */
export function widgetSnippet(baseUrl: string, publicApiKey: string): string {
  return `<script src="${baseUrl}/widget.js" data-betty-key="${publicApiKey}" defer></script>`;
}

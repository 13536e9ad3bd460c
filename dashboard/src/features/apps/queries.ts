// The team's connected apps (HubSpot, Zapier): the list the dashboard polls every 30 s, the
// HubSpot OAuth start (connect, reconnect), disconnect, and the HubSpot reads the canvas uses
// (a node's contacts every 10 s, the portal's lifecycle stages every 60 s). Every change
// refreshes the list.

import type { QueryClient } from '@tanstack/react-query';

import {
  connectHubspotApp,
  disconnectApp,
  finishHubspotAuthorization,
  getListConnectedAppsQueryKey,
  getListHubspotContactsQueryKey,
  getListHubspotLifecycleStagesQueryKey,
  getSearchHubspotContactsQueryKey,
  listConnectedApps,
  listHubspotContacts,
  listHubspotLifecycleStages,
  reconnectHubspotApp,
  searchHubspotContacts,
} from '../../api/gen/apps/apps';
import type { ConnectedApp } from '../../api/gen/model';
import { leaveFor } from './redirect';

/** Spec section 9: connected apps 30 s, CRM stages 60 s, HubSpot contacts 10 s. */
export const CONNECTED_APPS_POLL_MS = 30_000;
export const HUBSPOT_STAGES_POLL_MS = 60_000;
export const HUBSPOT_CONTACTS_POLL_MS = 10_000;

export function connectedAppsQueryOptions(organizationId: string) {
  return {
    queryKey: getListConnectedAppsQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listConnectedApps({ organizationId }, { signal })).data,
    refetchInterval: CONNECTED_APPS_POLL_MS,
  };
}

export function invalidateConnectedApps(queryClient: QueryClient, organizationId: string) {
  return queryClient.invalidateQueries({ queryKey: getListConnectedAppsQueryKey({ organizationId }) });
}

/** The connected HubSpot portals of a list, for pickers. */
export function connectedHubspotApps(apps: readonly ConnectedApp[] | undefined): ConnectedApp[] {
  return (apps ?? []).filter((a) => a.integrationId === 'hubspot' && a.status === 'connected');
}

/**
 * Starts HubSpot's OAuth round trip: the server answers the authorisation URL (with a signed,
 * single-use state) and the browser goes there; HubSpot sends it back to the server's callback,
 * which sends it on to the dashboard's callback page (finishHubspotMutationOptions), or to
 * /dashboard?app=hubspot&result=error&reason=… when the state is forged or expired or HubSpot was refused.
 */
export function connectHubspotMutationOptions() {
  return {
    mutationFn: async (body: { organizationId: string; id?: string }) =>
      (body.id ? await reconnectHubspotApp({ organizationId: body.organizationId, id: body.id }) : await connectHubspotApp({ organizationId: body.organizationId })).data,
    onSuccess: (auth: { authorizationUrl: string }) => leaveFor(auth.authorizationUrl),
  };
}

/** What the callback page says when its address lacks what the server's callback puts there. */
export const MISSING_HUBSPOT_CALLBACK = 'Missing code, state or teamId';

/**
 * Finishes HubSpot's OAuth round trip: the server's callback sends the browser to the dashboard's
 * callback page with HubSpot's code and state, and the page relays them with the signed-in user's
 * session (the state is that user's only).
 */
export function finishHubspotMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ code, state, teamId }: { code: string | null; state: string | null; teamId: string | null }) => {
      if (!code || !state || !teamId) throw new Error(MISSING_HUBSPOT_CALLBACK);
      return (await finishHubspotAuthorization({ organizationId: teamId, code, state })).data;
    },
    onSuccess: (_app: unknown, v: { teamId: string | null }) => invalidateConnectedApps(queryClient, v.teamId ?? ''),
  };
}

export function disconnectAppMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; id: string }) => (await disconnectApp(body)).data,
    onSuccess: (_app: unknown, body: { organizationId: string }) => invalidateConnectedApps(queryClient, body.organizationId),
  };
}

export interface NodeRef {
  nodeId: string;
  workflowId: string;
}

/** A Contacts node's HubSpot contacts (its list, or the ones picked for it), refreshed every 10 s. */
export function hubspotContactsQueryOptions(organizationId: string, connectedAppId: string, node: NodeRef, page: number) {
  const params = { organizationId, connectedAppId, page, nodeId: node.nodeId, workflowId: node.workflowId };
  return {
    queryKey: getListHubspotContactsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listHubspotContacts(params, { signal }),
    refetchInterval: HUBSPOT_CONTACTS_POLL_MS,
  };
}

export function invalidateHubspotContacts(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: getListHubspotContactsQueryKey().slice(0, 1) });
}

/** A search of a portal's contacts; with a node, the matches are also picked for it (the server adds them). */
export function hubspotSearchQueryOptions(organizationId: string, connectedAppId: string, match: string) {
  const params = { organizationId, connectedAppId, ...(match.trim() ? { match: match.trim() } : {}) };
  return {
    queryKey: getSearchHubspotContactsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => searchHubspotContacts(params, { signal }),
  };
}

/** Picks every match of `match` for the node (the contract's search with nodeId and workflowId). */
export function pickHubspotContactsMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (p: { organizationId: string; connectedAppId: string; match: string } & NodeRef) =>
      searchHubspotContacts({ organizationId: p.organizationId, connectedAppId: p.connectedAppId, nodeId: p.nodeId, workflowId: p.workflowId, ...(p.match.trim() ? { match: p.match.trim() } : {}) }),
    onSuccess: () => invalidateHubspotContacts(queryClient),
  };
}

export function hubspotStagesQueryOptions(organizationId: string, connectedAppId: string) {
  const params = { organizationId, connectedAppId };
  return {
    queryKey: getListHubspotLifecycleStagesQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listHubspotLifecycleStages(params, { signal })).data,
    refetchInterval: HUBSPOT_STAGES_POLL_MS,
  };
}

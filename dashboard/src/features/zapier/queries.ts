// Zapier: the templates that use Betty's Zapier app, the team's zaps (4 a page), finishing the
// OAuth round trip (the callback page posts the code Zapier sent) and disconnecting. The
// connection is a connected app, so every change refreshes the connected apps list too.

import type { QueryClient } from '@tanstack/react-query';

import { connectZapierApp, disconnectZapierApp, getListZapierHooksQueryKey, getListZapierTemplatesQueryKey, getListZapierZapsQueryKey, listZapierHooks, listZapierTemplates, listZapierZaps } from '../../api/gen/apps/apps';
import { completeZapierAuthorization } from '../../api/gen/auth/auth';
import { invalidateConnectedApps } from '../apps/queries';
import { leaveFor } from '../apps/redirect';

/** Spec section 9: zaps, 4 a page. */
export const ZAPS_PAGE_SIZE = 4;

export function zapierTemplatesQueryOptions(organizationId: string) {
  return {
    queryKey: getListZapierTemplatesQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listZapierTemplates({ organizationId }, { signal })).data,
  };
}

export function zapierZapsQueryOptions(organizationId: string, page: number) {
  const params = { organizationId, page, limit: ZAPS_PAGE_SIZE };
  return {
    queryKey: getListZapierZapsQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listZapierZaps(params, { signal }),
  };
}

/** The team's REST-hook subscriptions, made by its zaps' triggers. */
export function zapierHooksQueryOptions(organizationId: string) {
  return {
    queryKey: getListZapierHooksQueryKey({ organizationId }),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listZapierHooks({ organizationId }, { signal })).data,
  };
}

function invalidateZapier(queryClient: QueryClient, organizationId: string) {
  return Promise.all([invalidateConnectedApps(queryClient, organizationId), queryClient.invalidateQueries({ queryKey: getListZapierZapsQueryKey().slice(0, 1) })]);
}

/** The spec's own pre-flight check before the code is sent. */
export const MISSING_CODE_OR_TEAM = 'Missing code or teamId';

/**
 * Starts Zapier's OAuth round trip: the server answers Zapier's authorise URL (with a signed,
 * single-use state) and the browser goes there; Zapier sends it back to the callback page.
 */
export function connectZapierMutationOptions() {
  return {
    mutationFn: async (body: { organizationId: string }) => (await connectZapierApp(body)).data,
    onSuccess: (auth: { authorizationUrl: string }) => leaveFor(auth.authorizationUrl),
  };
}

export function completeZapierMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ code, teamId, state }: { code: string | null; teamId: string | null; state?: string | null }) => {
      if (!code || !teamId) throw new Error(MISSING_CODE_OR_TEAM);
      return (await completeZapierAuthorization({ code, organizationId: teamId, ...(state ? { state } : {}) })).data;
    },
    onSuccess: (_app: unknown, v: { teamId: string | null }) => invalidateZapier(queryClient, v.teamId ?? ''),
  };
}

export function disconnectZapierMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { organizationId: string; id: string }) => (await disconnectZapierApp(body)).data,
    onSuccess: (_app: unknown, body: { organizationId: string }) => invalidateZapier(queryClient, body.organizationId),
  };
}

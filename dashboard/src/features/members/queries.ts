// Team members: the paged list, invitations, role changes (optimistic, rolled back on error),
// removal and ownership transfer.

import type { QueryClient } from '@tanstack/react-query';

import type { AssignableTeamRole, TeamMemberListResponse } from '../../api/gen/model';
import { getListTeamMembersQueryKey, inviteTeamMember, listTeamMembers, removeTeamMember, transferTeamOwnership, updateTeamMemberRole } from '../../api/gen/team/team';
import { invalidateApiKeys } from '../api-keys/queries';
import { invalidateTeams } from '../team/queries';

export const MEMBERS_PAGE_SIZE = 10;

/** Every page of every team's member list, for invalidation. */
const MEMBERS_ROOT = [getListTeamMembersQueryKey()[0]];

function membersParams(organizationId: string, page: number) {
  return { organizationId, page, sizePerPage: MEMBERS_PAGE_SIZE };
}

export function membersQueryOptions(organizationId: string, page: number) {
  const params = membersParams(organizationId, page);
  return {
    queryKey: getListTeamMembersQueryKey(params),
    queryFn: async ({ signal }: { signal: AbortSignal }) => listTeamMembers(params, { signal }),
  };
}

// Invitation and transfer links point at the server's --base-url (no `origin` sent): that is
// where `betty serve` shows this dashboard, and it needs no allowed-origins list.
export function inviteMemberMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: { email: string; organizationId: string; role: AssignableTeamRole }) =>
      (await inviteTeamMember(body)).data,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MEMBERS_ROOT }),
  };
}

interface RoleChange {
  organizationId: string;
  email: string;
  role: AssignableTeamRole;
}

type Snapshot = [readonly unknown[], TeamMemberListResponse | undefined][];

export function changeRoleMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (change: RoleChange) => (await updateTeamMemberRole(change)).data,
    // Show the new role at once; put the old one back if the server refuses.
    onMutate: async (change: RoleChange): Promise<{ snapshot: Snapshot }> => {
      await queryClient.cancelQueries({ queryKey: MEMBERS_ROOT });
      const snapshot = queryClient.getQueriesData<TeamMemberListResponse>({ queryKey: MEMBERS_ROOT });
      queryClient.setQueriesData<TeamMemberListResponse>({ queryKey: MEMBERS_ROOT }, (old) =>
        old
          ? {
              ...old,
              data: old.data.map((m) => (m.organizationId === change.organizationId && m.email === change.email ? { ...m, role: change.role } : m)),
            }
          : old,
      );
      return { snapshot };
    },
    onError: (_error: unknown, _change: RoleChange, context: { snapshot: Snapshot } | undefined) => {
      for (const [key, data] of context?.snapshot ?? []) {
        queryClient.setQueryData(key, data);
      }
    },
    // A demotion also lowers the role of the keys the member made.
    onSettled: (_data: unknown, _error: unknown, change: RoleChange) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: MEMBERS_ROOT }), invalidateApiKeys(queryClient, change.organizationId)]),
  };
}

export interface Removal {
  organizationId: string;
  email: string;
  /** Keep the API keys the member made; by default they are revoked with the member. */
  keepApiKeys?: boolean;
}

export function removeMemberMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async ({ keepApiKeys, ...params }: Removal) => (await removeTeamMember({ ...params, ...(keepApiKeys ? { keepApiKeys: true } : {}) })).data,
    // The member's keys are revoked (or now show their maker has left); leaving drops a team.
    onSuccess: (_result: unknown, removal: Removal) =>
      Promise.all([queryClient.invalidateQueries({ queryKey: MEMBERS_ROOT }), invalidateApiKeys(queryClient, removal.organizationId), invalidateTeams(queryClient)]),
  };
}

export function transferOwnershipMutationOptions() {
  return {
    mutationFn: async (body: { newOwnerEmail: string; organizationId: string }) =>
      (await transferTeamOwnership(body)).data,
  };
}

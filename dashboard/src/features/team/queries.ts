// Teams: the list behind the switcher, properties, deletion, verification, onboarding,
// invitations and ownership transfer. Each mutation refreshes what it changed.

import type { QueryClient } from '@tanstack/react-query';

import type { CreateTeamRequest, UpdateTeamPropertiesRequest } from '../../api/gen/model';
import {
  acceptPendingTeamInvitation,
  acceptTeamInvitation,
  confirmTeamOwnershipTransfer,
  createTeam,
  deleteTeam,
  getGetTeamOnboardingQueryKey,
  getListPendingTeamInvitationsQueryKey,
  getListTeamMembersQueryKey,
  getListTeamsQueryKey,
  getTeamOnboarding,
  listPendingTeamInvitations,
  listTeams,
  requestTeamVerification,
  updateTeamProperties,
} from '../../api/gen/team/team';
import { meQueryKey } from '../auth/queries';

const TEAMS_PARAMS = { page: 1, sizePerPage: 100 };
/** Every page of the teams list, for invalidation. */
const TEAMS_ROOT = [getListTeamsQueryKey()[0]];

export function teamsQueryOptions() {
  return {
    queryKey: getListTeamsQueryKey(TEAMS_PARAMS),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listTeams(TEAMS_PARAMS, { signal })).data,
  };
}

export function onboardingQueryOptions(teamId: string) {
  return {
    queryKey: getGetTeamOnboardingQueryKey(teamId),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await getTeamOnboarding(teamId, { signal })).data,
  };
}

export function pendingInvitationsQueryOptions() {
  return {
    queryKey: getListPendingTeamInvitationsQueryKey(),
    queryFn: async ({ signal }: { signal: AbortSignal }) => (await listPendingTeamInvitations({ signal })).data,
  };
}

function refreshTeams(queryClient: QueryClient) {
  return Promise.all([invalidateTeams(queryClient), queryClient.invalidateQueries({ queryKey: meQueryKey })]);
}

/** Refreshes every page of the teams list (a role, a name or a membership changed). */
export function invalidateTeams(queryClient: QueryClient) {
  return queryClient.invalidateQueries({ queryKey: TEAMS_ROOT });
}

export function createTeamMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: CreateTeamRequest) => (await createTeam(body)).data,
    onSuccess: () => refreshTeams(queryClient),
  };
}

export function updateTeamMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (body: UpdateTeamPropertiesRequest) => (await updateTeamProperties(body)).data,
    onSuccess: () => invalidateTeams(queryClient),
  };
}

export function deleteTeamMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (teamId: string) => (await deleteTeam(teamId)).data,
    onSuccess: () => refreshTeams(queryClient),
  };
}

export function requestVerificationMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (teamId: string) => (await requestTeamVerification(teamId)).data,
    onSuccess: () => invalidateTeams(queryClient),
  };
}

export function acceptInvitationMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (token: string) => (await acceptTeamInvitation({ token })).data,
    onSuccess: () => Promise.all([refreshTeams(queryClient), queryClient.invalidateQueries({ queryKey: getListPendingTeamInvitationsQueryKey() })]),
  };
}

export function acceptPendingInvitationMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (organizationMemberId: string) => (await acceptPendingTeamInvitation({ organizationMemberId })).data,
    onSuccess: () => Promise.all([refreshTeams(queryClient), queryClient.invalidateQueries({ queryKey: getListPendingTeamInvitationsQueryKey() })]),
  };
}

export function confirmTransferMutationOptions(queryClient: QueryClient) {
  return {
    mutationFn: async (transferOwnershipToken: string) => (await confirmTeamOwnershipTransfer({ transferOwnershipToken })).data,
    onSuccess: () => Promise.all([refreshTeams(queryClient), queryClient.invalidateQueries({ queryKey: [getListTeamMembersQueryKey()[0]] })]),
  };
}

// Who may use which control (docs/roles.md): each role can do all the roles below it can.
// The server decides; these rules only hide or disable what would be refused, with the reason.

import type { TeamRole } from '../api/gen/model';

export const ROLE_RANK: Record<TeamRole, number> = {
  readonly: 0,
  member: 1,
  developer: 2,
  admin: 3,
  owner: 4,
};

export const ROLE_LABELS: Record<TeamRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  developer: 'Developer',
  member: 'Member',
  readonly: 'Read only',
};

export const ROLE_DESCRIPTIONS: Record<TeamRole, string> = {
  owner: 'Everything, including deleting the team and transferring ownership.',
  admin: 'Manage members, team properties, verification and billing.',
  developer: 'Manage API keys, integrations and webhooks; view billing.',
  member: 'Create and run agents, campaigns and workflows.',
  readonly: 'Read everything of the team, change nothing.',
};

export function atLeast(role: TeamRole | undefined, minimum: TeamRole): boolean {
  return role !== undefined && ROLE_RANK[role] >= ROLE_RANK[minimum];
}

export type TeamAction = 'manageMembers' | 'editTeam' | 'requestVerification' | 'deleteTeam' | 'transferOwnership' | 'manageApiKeys' | 'editCalling' | 'manageNumbers' | 'viewBilling' | 'manageBilling' | 'manageIntegrations';

const NEEDS: Record<TeamAction, { role: TeamRole; reason: string }> = {
  manageMembers: { role: 'admin', reason: 'Only admins and the owner can invite, remove or change the role of members.' },
  editTeam: { role: 'admin', reason: "Only admins and the owner can change the team's properties." },
  requestVerification: { role: 'admin', reason: 'Only admins and the owner can request verification.' },
  deleteTeam: { role: 'owner', reason: 'Only the owner can delete the team.' },
  transferOwnership: { role: 'owner', reason: 'Only the owner can transfer ownership.' },
  manageApiKeys: { role: 'developer', reason: 'Only developers, admins and the owner can manage API keys.' },
  editCalling: { role: 'member', reason: 'Read-only members can look at campaigns, agents, knowledge bases, voices and numbers but not change them.' },
  manageNumbers: { role: 'admin', reason: 'Only admins and the owner can buy or release phone numbers (they are paid monthly).' },
  viewBilling: { role: 'developer', reason: 'Billing is shown to developers, admins and the owner of the team.' },
  manageBilling: { role: 'admin', reason: 'Only admins and the owner can spend the team’s money or change its billing details.' },
  manageIntegrations: { role: 'developer', reason: 'Only developers, admins and the owner can connect or disconnect apps.' },
};

export interface Permission {
  allowed: boolean;
  /** Why not, in words for the person; empty when allowed. */
  reason: string;
}

export function can(role: TeamRole | undefined, action: TeamAction): Permission {
  const need = NEEDS[action];
  return atLeast(role, need.role) ? { allowed: true, reason: '' } : { allowed: false, reason: need.reason };
}

/** The roles a caller may hand out (to a member or an API key): never owner, never above their own. */
export function assignableRoles(role: TeamRole | undefined): TeamRole[] {
  if (role === undefined) return [];
  return (['admin', 'developer', 'member', 'readonly'] as const).filter((r) => ROLE_RANK[r] <= ROLE_RANK[role]);
}

// Home's "Recent activity", made only from records the server has: members who joined or were
// invited, API keys made, and the team itself. Newest first.

import type { ApiKey, Organization, TeamMember } from '../api/gen/model';

export interface ActivityEntry {
  id: string;
  kind: 'joined' | 'invited' | 'apiKey' | 'team';
  text: string;
  at: string;
}

export function recentActivity({ team, members, apiKeys, limit = 6 }: { team: Pick<Organization, 'id' | 'name' | 'createdAt'>; members: readonly TeamMember[]; apiKeys: readonly ApiKey[]; limit?: number }): ActivityEntry[] {
  const entries: ActivityEntry[] = [{ id: `team:${team.id}`, kind: 'team', text: `${team.name} was created`, at: team.createdAt }];
  for (const m of members) {
    const who = m.name ?? m.email;
    if (m.status === 'active' && m.joinedAt) entries.push({ id: `joined:${m.id}`, kind: 'joined', text: `${who} joined the team`, at: m.joinedAt });
    else if (m.status === 'invited' && m.invitedAt) entries.push({ id: `invited:${m.id}`, kind: 'invited', text: `${m.email} was invited`, at: m.invitedAt });
  }
  for (const k of apiKeys) {
    const maker = k.createdBy ? (k.createdBy.name ?? k.createdBy.email) : 'Someone';
    entries.push({ id: `key:${k.id}`, kind: 'apiKey', text: `${maker} created the API key “${k.name}”`, at: k.createdAt });
  }
  return entries.sort((a, b) => (a.at < b.at ? 1 : a.at > b.at ? -1 : 0)).slice(0, limit);
}

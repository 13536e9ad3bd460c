// What the command palette (⌘K / Ctrl-K) offers, as plain data: pages to jump to, teams to switch
// to, recent pages and the common actions, given who is signed in and which team is shown. The
// palette component only renders this list and runs the chosen action.

import type { LucideIcon } from 'lucide-react';
import { Building2, Clock, KeyRound, LogOut, Monitor, Moon, Plus, Sun, User, UserPlus } from 'lucide-react';

import type { TeamRole } from '../api/gen/model';
import { availableNavItems, isNavItemVisible } from './nav';
import type { RecentEntry } from './recent';
import { can } from './roles';
import { teamPath } from './teamPath';
import type { ThemePreference } from './theme';

export type PaletteAction =
  | { kind: 'navigate'; to: string }
  | { kind: 'switch-team'; teamId: string }
  | { kind: 'create-team' }
  | { kind: 'sign-out' }
  | { kind: 'theme'; value: ThemePreference };

export type PaletteGroup = 'Recent' | 'Pages' | 'Teams' | 'Actions' | 'Theme';
export const PALETTE_GROUPS: readonly PaletteGroup[] = ['Recent', 'Actions', 'Pages', 'Teams', 'Theme'];

export interface PaletteCommand {
  id: string;
  group: PaletteGroup;
  label: string;
  keywords: string[];
  icon: LucideIcon;
  action: PaletteAction;
}

export interface PaletteInput {
  team: { id: string; myRole?: TeamRole } | null;
  teams: readonly { id: string; name: string }[];
  isSiteAdmin: boolean;
  recent: readonly RecentEntry[];
  theme: ThemePreference;
  /** The page shown now (path and query), left out of Recent. */
  current?: string;
}

/** Where a page action lands: the screen, told to open its dialog (see useActionParam). */
export function actionPath(path: string, teamId: string, action: string): string {
  return `${teamPath(path, teamId)}&action=${action}`;
}

const THEMES: { value: ThemePreference; label: string; icon: LucideIcon }[] = [
  { value: 'light', label: 'Light theme', icon: Sun },
  { value: 'dark', label: 'Dark theme', icon: Moon },
  { value: 'system', label: 'System theme', icon: Monitor },
];

export function paletteCommands({ team, teams, isSiteAdmin, recent, theme, current }: PaletteInput): PaletteCommand[] {
  const commands: PaletteCommand[] = [];
  for (const entry of recent) {
    if (entry.to === current) continue;
    commands.push({ id: `recent:${entry.to}`, group: 'Recent', label: entry.label, keywords: ['recent'], icon: Clock, action: { kind: 'navigate', to: entry.to } });
  }

  if (team) {
    if (can(team.myRole, 'manageApiKeys').allowed) {
      commands.push({ id: 'action:create-api-key', group: 'Actions', label: 'Create API key', keywords: ['new', 'token'], icon: KeyRound, action: { kind: 'navigate', to: actionPath('/dashboard/api-keys', team.id, 'create') } });
    }
    if (can(team.myRole, 'manageMembers').allowed) {
      commands.push({ id: 'action:invite-member', group: 'Actions', label: 'Invite member', keywords: ['add', 'people', 'teammate'], icon: UserPlus, action: { kind: 'navigate', to: actionPath('/dashboard/members', team.id, 'invite') } });
    }
  }
  commands.push({ id: 'action:create-team', group: 'Actions', label: 'Create team', keywords: ['new', 'organization'], icon: Plus, action: { kind: 'create-team' } });
  commands.push({ id: 'action:sign-out', group: 'Actions', label: 'Sign out', keywords: ['log out', 'logout'], icon: LogOut, action: { kind: 'sign-out' } });

  // Without a team only Home (which offers to create one), the profile and the docs make sense.
  const pages = availableNavItems({ isSiteAdmin }).filter((item) => (team ? isNavItemVisible(item, team.myRole) : ['home', 'docs', 'admin'].includes(item.id)));
  for (const item of pages) {
    const to = item.path.startsWith('/dashboard') || item.path === '/onboarding' ? teamPath(item.path, team?.id) : item.path;
    commands.push({ id: `page:${item.id}`, group: 'Pages', label: item.label, keywords: item.keywords ?? [], icon: item.icon, action: { kind: 'navigate', to } });
  }
  commands.push({ id: 'page:profile', group: 'Pages', label: 'Profile', keywords: ['account', 'name', 'password'], icon: User, action: { kind: 'navigate', to: teamPath('/dashboard/profile', team?.id) } });

  for (const t of teams) {
    if (t.id === team?.id) continue;
    commands.push({ id: `team:${t.id}`, group: 'Teams', label: `Switch to ${t.name}`, keywords: ['team', t.name], icon: Building2, action: { kind: 'switch-team', teamId: t.id } });
  }

  for (const option of THEMES) {
    if (option.value === theme) continue;
    commands.push({ id: `theme:${option.value}`, group: 'Theme', label: `Use ${option.label.toLowerCase()}`, keywords: ['appearance', 'dark mode', 'colour'], icon: option.icon, action: { kind: 'theme', value: option.value } });
  }
  return commands;
}

/**
 * The commands a typed query keeps, in their order: each word of the query must appear in the
 * command's label or keywords (case-insensitive). Recent pages are filtered like every other
 * group: their ids (paths full of letters) are not searched, or any query would keep them all.
 */
export function filterCommands(commands: readonly PaletteCommand[], query: string): PaletteCommand[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...commands];
  const inLabel = (c: PaletteCommand) => words.filter((w) => c.label.toLowerCase().includes(w)).length;
  // Commands whose label holds more of the words come first ("dark theme" picks Use dark theme,
  // not Use light theme, whose keywords mention dark mode); otherwise the order is kept.
  return commands
    .filter((c) => {
      const text = [c.label, ...c.keywords].join(' ').toLowerCase();
      return words.every((w) => text.includes(w));
    })
    .map((c, i) => ({ c, i, score: inLabel(c) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map(({ c }) => c);
}

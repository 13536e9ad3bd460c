import { Search, User } from 'lucide-react';
import { Link, NavLink } from 'react-router';

import type { Organization } from '../../api/gen/model';
import { teamPath } from '../../features/team/TeamContext';
import { cn } from '../../lib/cn';
import { area } from '../../lib/features';
import { isNavItemAvailable, isNavItemVisible, navGroups, type NavItem } from '../../lib/nav';
import { BettyMark } from '../../components/BettyMark';
import { TeamSwitcher } from './TeamSwitcher';

interface SidebarProps {
  team: Organization | null;
  teams: Organization[];
  isSiteAdmin: boolean;
  onSwitch: (teamId: string) => void;
  onCreate: () => void;
  onNavigate: () => void;
  onSearch: () => void;
  shortcut: string;
}

const TEAMLESS_ITEMS = ['home', 'docs', 'admin'];
const PROFILE: NavItem = { id: 'profile', label: 'Profile', icon: User, path: '/dashboard/profile', end: true };

const ITEM = 'flex items-center gap-2.5 rounded-md px-2.5 py-1.5 text-sm font-medium [&_svg]:size-4 [&_svg]:shrink-0';

export function Sidebar({ team, teams, isSiteAdmin, onSwitch, onCreate, onNavigate, onSearch, shortcut }: SidebarProps) {
  // Without a team only the way to create one (on Home), the profile and help make sense.
  const groups = team ? navGroups({ isSiteAdmin }).map((g) => ({ ...g, items: g.items.filter((i) => isNavItemVisible(i, team.myRole)) })) : navGroups({ isSiteAdmin })
        .map((g) => ({ ...g, items: g.items.filter((i) => TEAMLESS_ITEMS.includes(i.id)) }))
        .filter((g) => g.items.length > 0);
  return (
    <div className="flex h-full flex-col gap-4 px-3 py-4">
      <Link to={teamPath('/dashboard', team?.id)} onClick={onNavigate} className="flex items-center gap-2 self-start rounded-lg px-1.5 text-lg font-semibold tracking-tight text-fg">
        <BettyMark className="size-7" />
        Betty
      </Link>
      <TeamSwitcher
        team={team}
        teams={teams}
        onSwitch={(id) => {
          onSwitch(id);
          onNavigate();
        }}
        onCreate={onCreate}
      />
      <button type="button" onClick={onSearch} className="flex items-center gap-2 rounded-md border border-line bg-subtle px-2.5 py-1.5 text-sm text-fg-subtle hover:bg-muted">
        <Search aria-hidden="true" className="size-4" />
        <span className="flex-1 truncate text-left">Jump to…</span>
        <kbd className="rounded border border-line bg-surface px-1.5 font-sans text-xs text-fg-subtle">{shortcut}</kbd>
      </button>
      <nav aria-label="Dashboard" className="flex-1 space-y-5 overflow-y-auto">
        {groups.map((group) => (
          <div key={group.id}>
            {group.label && <h2 className="mb-1 px-2.5 text-xs font-medium text-fg-subtle">{group.label}</h2>}
            <ul className="space-y-0.5">
              {group.items.map((item) => (
                <li key={item.id}>{isNavItemAvailable(item) ? <NavItemLink item={item} teamId={team?.id} onNavigate={onNavigate} /> : <ComingSoonItem item={item} />}</li>
              ))}
              {!team && group.id === 'main' && (
                <li>
                  <NavItemLink item={PROFILE} teamId={undefined} onNavigate={onNavigate} />
                </li>
              )}
            </ul>
          </div>
        ))}
      </nav>
    </div>
  );
}

function NavItemLink({ item, teamId, onNavigate }: { item: NavItem; teamId: string | undefined; onNavigate: () => void }) {
  const Icon = item.icon;
  const to = item.path.startsWith('/dashboard') || item.path === '/onboarding' ? teamPath(item.path, teamId) : item.path;
  return (
    <NavLink
      to={to}
      end={item.end ?? false}
      onClick={onNavigate}
      className={({ isActive }) => cn(ITEM, isActive ? 'bg-accent-subtle text-accent-fg' : 'text-fg-soft hover:bg-muted hover:text-fg')}
    >
      <Icon aria-hidden="true" />
      {item.id === 'home' && !teamId ? 'Create your team' : item.label}
    </NavLink>
  );
}

/** A part of Betty this server does not have yet: named, marked, and not a link. */
function ComingSoonItem({ item }: { item: NavItem }) {
  const Icon = item.icon;
  const summary = item.area ? area(item.area).summary : '';
  return (
    <span className={cn(ITEM, 'cursor-default text-fg-subtle')} title={`${item.label}: ${summary} Not built yet.`} data-testid="nav-coming-soon">
      <Icon aria-hidden="true" className="opacity-70" />
      <span className="flex-1">{item.label}</span>
      <span className="rounded-full border border-line px-1.5 py-px text-[0.6875rem] leading-4 font-medium text-fg-subtle">Soon</span>
      <span className="sr-only"> (coming soon: not built yet)</span>
    </span>
  );
}

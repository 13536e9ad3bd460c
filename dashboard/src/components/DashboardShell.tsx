import * as RadixDialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { Suspense, useId, useMemo, useState } from 'react';
import { Link, NavLink, Outlet, useLocation, useNavigate } from 'react-router';

import type { Organization } from '../api/gen/model';
import { ConfirmEmailBanner } from '../features/auth/ConfirmEmailBanner';
import { signOut, useCurrentUser } from '../features/auth/queries';
import { HelpSheet } from '../features/help/HelpSheet';
import { CreateTeamForm } from '../features/team/CreateTeamForm';
import { PendingInvitationsDialog } from '../features/team/PendingInvitationsDialog';
import { TeamContext, teamPath, type TeamContextValue } from '../features/team/TeamContext';
import { useTeamSelection } from '../features/team/useTeamSelection';
import { cn } from '../lib/cn';
import { AVAILABLE_AREAS, COMING_SOON_AREAS } from '../lib/features';
import { ROLE_LABELS } from '../lib/roles';
import { BettyMark } from './BettyMark';
import { buttonClasses } from './ui/button';
import { Dialog, DialogContent } from './ui/dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from './ui/dropdown-menu';
import { ErrorState, LoadingState } from './ui/states';
import { useFocusMainOnNavigation } from './useFocusMainOnNavigation';

/** Screens that work without a team. */
const TEAMLESS_PATHS = ['/dashboard/profile', '/admin'];

export function DashboardShell() {
  const user = useCurrentUser();
  const { teams, list, team, switchTeam } = useTeamSelection(user.data);
  const location = useLocation();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  useFocusMainOnNavigation();

  const context = useMemo<TeamContextValue | null>(
    () => (user.data ? { user: user.data, teams: list, team, switchTeam } : null),
    [user.data, list, team, switchTeam],
  );

  if (user.isPending || (user.data && teams.isPending)) {
    return <LoadingState label="Loading your dashboard…" />;
  }
  if (user.isError || !context) {
    return (
      <div className="mx-auto max-w-lg p-6">
        <ErrorState error={user.error} onRetry={() => void user.refetch()} />
      </div>
    );
  }

  const needsTeam = !TEAMLESS_PATHS.includes(location.pathname);
  const teamsFailed = teams.isError && needsTeam;
  const teamless = !teams.isError && list.length === 0 && needsTeam;

  function created(newTeam: Organization) {
    setCreateOpen(false);
    switchTeam(newTeam.id);
    void navigate(teamPath('/dashboard', newTeam.id));
  }

  const sidebar = (
    <Sidebar
      team={team}
      teams={list}
      isSiteAdmin={context.user.isSiteAdmin}
      onSwitch={switchTeam}
      onCreate={() => setCreateOpen(true)}
      onNavigate={() => setMenuOpen(false)}
    />
  );

  return (
    <TeamContext value={context}>
      <div className="min-h-screen lg:grid lg:grid-cols-[16rem_minmax(0,1fr)]">
        <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-white focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-brand-700 focus:shadow">
          Skip to content
        </a>
        <aside className="hidden border-r border-zinc-200 bg-white lg:block">
          <div className="sticky top-0 h-screen overflow-y-auto">{sidebar}</div>
        </aside>
        <RadixDialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="fixed inset-0 z-40 bg-zinc-900/30 lg:hidden" />
            <RadixDialog.Content aria-describedby={undefined} className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] overflow-y-auto bg-white shadow-xl focus:outline-none lg:hidden">
              <RadixDialog.Title className="sr-only">Navigation</RadixDialog.Title>
              {sidebar}
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>

        <div className="flex min-w-0 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-2 border-b border-zinc-200 bg-white/95 px-3 backdrop-blur sm:px-5">
            <button type="button" className={buttonClasses('ghost', 'md', 'lg:hidden')} onClick={() => setMenuOpen(true)} aria-label="Open navigation">
              ☰
            </button>
            <Link to={teamPath('/dashboard', team?.id)} className="flex items-center gap-2 font-semibold lg:hidden">
              <BettyMark className="size-7" />
              <span className="sr-only sm:not-sr-only">Betty</span>
            </Link>
            <div className="ml-auto flex items-center gap-1">
              <HelpSheet />
              <UserMenu name={context.user.profile.name ?? context.user.email} email={context.user.email} teamId={team?.id} />
            </div>
          </header>
          <ConfirmEmailBanner user={context.user} />
          <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-8">
            {teamsFailed ? (
              <div className="mx-auto max-w-lg">
                <ErrorState title="Could not load your teams" error={teams.error} onRetry={() => void teams.refetch()} />
              </div>
            ) : teamless ? (
              <div className="mx-auto max-w-lg">
                <title>Create your team · Betty</title>
                <h1 className="text-2xl font-semibold tracking-tight text-zinc-900">Create your team</h1>
                <p className="mt-2 text-sm text-zinc-600">Everything in Betty belongs to a team: agents, numbers, calls and members. Start with yours; you can invite people next.</p>
                <div className="mt-6 rounded-xl border border-zinc-200 bg-white p-5">
                  <CreateTeamForm onCreated={created} />
                </div>
              </div>
            ) : (
              <Suspense fallback={<LoadingState />}>
                <Outlet />
              </Suspense>
            )}
          </main>
        </div>
      </div>
      <Dialog open={createOpen} onOpenChange={setCreateOpen}>
        <DialogContent title="Create a team" description="You become its owner; you can invite members afterwards.">
          <CreateTeamForm onCreated={created} />
        </DialogContent>
      </Dialog>
      <PendingInvitationsDialog onJoined={(teamId) => {
        switchTeam(teamId);
        void navigate(teamPath('/dashboard', teamId));
      }} />
    </TeamContext>
  );
}

interface SidebarProps {
  team: Organization | null;
  teams: Organization[];
  isSiteAdmin: boolean;
  onSwitch: (teamId: string) => void;
  onCreate: () => void;
  onNavigate: () => void;
}

function Sidebar({ team, teams, isSiteAdmin, onSwitch, onCreate, onNavigate }: SidebarProps) {
  const soonId = useId();
  // Without a team only the way to create one (on Home) and the profile make sense.
  const links = team
    ? [
        { to: '/dashboard', label: 'Home', end: true },
        { to: '/onboarding', label: 'Onboarding', end: true },
        ...AVAILABLE_AREAS.map((a) => ({ to: a.path, label: a.label, end: true })),
      ]
    : [
        { to: '/dashboard', label: 'Create your team', end: true },
        { to: '/dashboard/profile', label: 'Profile', end: true },
      ];
  return (
    <div className="flex h-full flex-col gap-4 p-4">
      <Link to={teamPath('/dashboard', team?.id)} onClick={onNavigate} className="flex items-center gap-2 px-1 text-lg font-semibold tracking-tight text-zinc-900">
        <BettyMark className="size-8" />
        Betty
      </Link>
      <TeamSwitcher team={team} teams={teams} onSwitch={(id) => { onSwitch(id); onNavigate(); }} onCreate={onCreate} />
      <nav aria-label="Dashboard">
        <ul className="space-y-0.5">
          {links.map((link) => (
            <li key={link.to}>
              <NavLink
                to={teamPath(link.to, team?.id)}
                end={link.end}
                onClick={onNavigate}
                className={({ isActive }) => cn('block rounded-md px-2.5 py-2 text-sm font-medium', isActive ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100')}
              >
                {link.label}
              </NavLink>
            </li>
          ))}
          {isSiteAdmin && (
            <li>
              <NavLink to="/admin" onClick={onNavigate} className={({ isActive }) => cn('block rounded-md px-2.5 py-2 text-sm font-medium', isActive ? 'bg-brand-50 text-brand-800' : 'text-zinc-700 hover:bg-zinc-100')}>
                Site admin
              </NavLink>
            </li>
          )}
        </ul>
      </nav>
      {team && COMING_SOON_AREAS.length > 0 && (
        <section aria-labelledby={soonId}>
          <h2 id={soonId} className="px-2.5 text-xs font-semibold tracking-wider text-zinc-500 uppercase">
            Coming soon
          </h2>
          <p className="sr-only">Parts of Betty this server does not have yet.</p>
          <ul className="mt-1.5 space-y-0.5" data-testid="coming-soon">
            {COMING_SOON_AREAS.map((a) => (
              <li key={a.id} className="px-2.5 py-1 text-sm text-zinc-500" title={`${a.label}: ${a.summary} Not built yet.`}>
                {a.label}
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="mt-auto border-t border-zinc-200 pt-3 text-sm">
        <Link to="/getting-started" onClick={onNavigate} className="block rounded-md px-2.5 py-2 text-zinc-600 hover:bg-zinc-100">
          Getting started
        </Link>
        <Link to="/docs" onClick={onNavigate} className="block rounded-md px-2.5 py-2 text-zinc-600 hover:bg-zinc-100">
          Docs
        </Link>
      </div>
    </div>
  );
}

function TeamSwitcher({ team, teams, onSwitch, onCreate }: { team: Organization | null; teams: Organization[]; onSwitch: (id: string) => void; onCreate: () => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="flex w-full items-center justify-between gap-2 rounded-lg border border-zinc-200 bg-zinc-50 px-3 py-2 text-left hover:bg-zinc-100" aria-label={`Team: ${team?.name ?? 'none'}. Switch team`}>
        <span className="min-w-0">
          <span className="block truncate text-sm font-semibold text-zinc-900" data-testid="current-team">{team?.name ?? 'No team yet'}</span>
          {team?.myRole && <span className="block text-xs text-zinc-500">{ROLE_LABELS[team.myRole]}</span>}
        </span>
        <span aria-hidden="true" className="text-zinc-500">
          ⇅
        </span>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" label="Teams">
        <DropdownMenuLabel>Your teams</DropdownMenuLabel>
        {teams.map((t) => (
          <DropdownMenuItem key={t.id} onSelect={() => onSwitch(t.id)}>
            <span aria-hidden="true" className="w-4">{t.id === team?.id ? '✓' : ''}</span>
            <span className="truncate">{t.name}</span>
            {t.id === team?.id && <span className="sr-only"> (current)</span>}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onCreate}>+ Create a team</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

function UserMenu({ name, email, teamId }: { name: string; email: string; teamId: string | undefined }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="flex items-center gap-2 rounded-full p-0.5 hover:bg-zinc-100 sm:rounded-md sm:px-2 sm:py-1" aria-label={`Account menu for ${name}`}>
        <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white">
          {initial}
        </span>
        <span className="hidden max-w-40 truncate text-sm font-medium text-zinc-800 sm:block">{name}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent label="Account">
        <DropdownMenuLabel>{email}</DropdownMenuLabel>
        <DropdownMenuItem onSelect={() => void navigate(teamPath('/dashboard/profile', teamId))}>Profile</DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut(queryClient)}>Sign out</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

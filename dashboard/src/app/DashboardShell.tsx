import * as RadixDialog from '@radix-ui/react-dialog';
import { useQueryClient } from '@tanstack/react-query';
import { Menu, Search } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';

import type { Organization } from '../api/gen/model';
import { ConfirmEmailBanner } from '../features/auth/ConfirmEmailBanner';
import { PastDueBanner } from '../features/billing/PastDueBanner';
import { signOut, useCurrentUser } from '../features/auth/queries';
import { HelpSheet } from '../features/help/HelpSheet';
import { CreateTeamForm } from '../features/team/CreateTeamForm';
import { PendingInvitationsDialog } from '../features/team/PendingInvitationsDialog';
import { TeamContext, teamPath, type TeamContextValue } from '../features/team/TeamContext';
import { useTeamSelection } from '../features/team/useTeamSelection';
import { useLiveEvents } from './liveEvents';
import { navItemFor } from '../lib/nav';
import { paletteCommands, type PaletteCommand } from '../lib/palette';
import { readRecent, recordRecent } from '../lib/recent';
import { useTheme } from '../lib/theme';
import { BettyMark } from '../components/BettyMark';
import { Sidebar } from './shell/Sidebar';
import { TeamSwitcher } from './shell/TeamSwitcher';
import { UserMenu } from './shell/UserMenu';
import { Dialog, DialogContent } from '../components/ui/dialog';
import { Breadcrumbs, type Crumb } from '../components/ui/page-header';
import { ErrorState, PageSkeleton } from '../components/ui/states';
import { useFocusMainOnNavigation } from '../components/useFocusMainOnNavigation';

const CommandPalette = lazy(() => import('./shell/CommandPalette'));

/** Screens that work without a team. */
const TEAMLESS_PATHS = ['/dashboard/profile', '/admin'];

function isMac(): boolean {
  return typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);
}

export function DashboardShell() {
  const user = useCurrentUser();
  const { teams, list, team, switchTeam } = useTeamSelection(user.data);
  const location = useLocation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [menuOpen, setMenuOpen] = useState(false);
  const [createOpen, setCreateOpen] = useState(false);
  const [paletteOpen, setPaletteOpen] = useState(false);
  // The palette's code is fetched on first use and kept mounted afterwards.
  const [paletteWanted, setPaletteWanted] = useState(false);
  const userId = user.data?.id ?? null;
  const { preference, setPreference } = useTheme(userId);
  const shortcut = isMac() ? '⌘K' : 'Ctrl K';
  useFocusMainOnNavigation();
  // The team's live updates; screens poll at the spec's intervals while the stream is closed.
  useLiveEvents(team?.id);

  const openPalette = useCallback(() => {
    setPaletteWanted(true);
    setMenuOpen(false);
    setPaletteOpen(true);
  }, []);

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if ((event.metaKey || event.ctrlKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        setPaletteWanted(true);
        setPaletteOpen((open) => !open);
      }
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const here = navItemFor(location.pathname);
  const pageLabel = here ? ('item' in here ? here.item.label : here.label) : null;
  const currentPath = teamPath(location.pathname, team?.id);
  useEffect(() => {
    if (userId && pageLabel && team) recordRecent(userId, { to: currentPath, label: `${pageLabel} · ${team.name}` });
  }, [userId, pageLabel, team, currentPath]);

  const context = useMemo<TeamContextValue | null>(
    () => (user.data ? { user: user.data, teams: list, team, switchTeam } : null),
    [user.data, list, team, switchTeam],
  );

  const commands = useMemo(
    () =>
      paletteOpen && user.data
        ? paletteCommands({ team, teams: list, isSiteAdmin: user.data.isSiteAdmin, recent: readRecent(user.data.id), theme: preference, current: currentPath })
        : [],
    [paletteOpen, user.data, team, list, preference, currentPath],
  );

  if (user.isPending || (user.data && teams.isPending)) {
    return (
      <div className="p-6">
        <PageSkeleton label="Loading your dashboard…" />
      </div>
    );
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

  function run(command: PaletteCommand) {
    setPaletteOpen(false);
    const { action } = command;
    switch (action.kind) {
      case 'navigate':
        void navigate(action.to);
        break;
      case 'switch-team':
        switchTeam(action.teamId);
        break;
      case 'create-team':
        setCreateOpen(true);
        break;
      case 'sign-out':
        void signOut(queryClient);
        break;
      case 'theme':
        setPreference(action.value);
        break;
    }
  }

  const sidebar = (
    <Sidebar
      team={team}
      teams={list}
      isSiteAdmin={context.user.isSiteAdmin}
      onSwitch={switchTeam}
      onCreate={() => setCreateOpen(true)}
      onNavigate={() => setMenuOpen(false)}
      onSearch={openPalette}
      shortcut={shortcut}
    />
  );

  const crumbs: Crumb[] = [];
  if (team) crumbs.push({ label: team.name, to: teamPath('/dashboard', team.id) });
  if (here && 'group' in here && here.group?.label && here.group.id !== 'main') crumbs.push({ label: here.group.label });
  if (pageLabel && !(here && 'item' in here && here.item.id === 'home')) crumbs.push({ label: pageLabel });

  return (
    <TeamContext value={context}>
      <div className="min-h-screen lg:grid lg:grid-cols-[15.5rem_minmax(0,1fr)]">
        <a href="#main" className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-50 focus:rounded-md focus:bg-surface focus:px-4 focus:py-2 focus:text-sm focus:font-medium focus:text-accent-fg focus:shadow">
          Skip to content
        </a>
        <aside className="hidden border-r border-line bg-subtle lg:block">
          <div className="sticky top-0 h-screen">{sidebar}</div>
        </aside>
        <RadixDialog.Root open={menuOpen} onOpenChange={setMenuOpen}>
          <RadixDialog.Portal>
            <RadixDialog.Overlay className="fixed inset-0 z-40 bg-black/40 lg:hidden" />
            <RadixDialog.Content aria-describedby={undefined} className="fixed inset-y-0 left-0 z-50 w-72 max-w-[85vw] border-r border-line bg-subtle shadow-xl focus:outline-none lg:hidden">
              <RadixDialog.Title className="sr-only">Navigation</RadixDialog.Title>
              {sidebar}
            </RadixDialog.Content>
          </RadixDialog.Portal>
        </RadixDialog.Root>

        <div className="flex min-w-0 flex-col">
          <header className="sticky top-0 z-30 flex h-14 items-center gap-1.5 border-b border-line bg-surface/90 px-2 backdrop-blur sm:gap-2 sm:px-5">
            <button type="button" className="rounded-md p-2 text-fg-soft hover:bg-muted lg:hidden" onClick={() => setMenuOpen(true)} aria-label="Open navigation">
              <Menu aria-hidden="true" className="size-5" />
            </button>
            <Link to={teamPath('/dashboard', team?.id)} className="hidden shrink-0 items-center rounded-md sm:flex lg:hidden" aria-label="Betty home">
              <BettyMark className="size-7" />
            </Link>
            <div className="min-w-0 flex-1 lg:hidden">
              {team && <TeamSwitcher compact team={team} teams={list} onSwitch={switchTeam} onCreate={() => setCreateOpen(true)} />}
            </div>
            <Breadcrumbs items={crumbs} className="hidden min-w-0 flex-1 lg:block" />
            <div className="ml-auto flex shrink-0 items-center gap-0.5 sm:gap-1">
              <button type="button" onClick={openPalette} className="rounded-md p-2 text-fg-soft hover:bg-muted" aria-label={`Jump to… (${shortcut})`} aria-keyshortcuts="Meta+K Control+K">
                <Search aria-hidden="true" className="size-5" />
              </button>
              <HelpSheet />
              <UserMenu name={context.user.profile.name ?? context.user.email} email={context.user.email} teamId={team?.id} theme={preference} onTheme={setPreference} />
            </div>
          </header>
          <ConfirmEmailBanner user={context.user} />
          <PastDueBanner team={team} />
          <main id="main" tabIndex={-1} className="flex-1 px-4 py-6 focus:outline-none sm:px-6 lg:px-10 lg:py-8">
            {teamsFailed ? (
              <div className="mx-auto max-w-lg">
                <ErrorState title="Could not load your teams" error={teams.error} onRetry={() => void teams.refetch()} />
              </div>
            ) : teamless ? (
              <div className="mx-auto max-w-lg">
                <title>Create your team · Betty</title>
                <h1 className="text-2xl font-semibold tracking-tight text-fg">Create your team</h1>
                <p className="mt-2 text-sm text-fg-muted">Everything in Betty belongs to a team: agents, numbers, calls and members. Start with yours; you can invite people next.</p>
                <div className="mt-6 rounded-xl border border-line bg-surface p-5 shadow-card">
                  <CreateTeamForm onCreated={created} />
                </div>
              </div>
            ) : (
              <Suspense fallback={<PageSkeleton />}>
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
      {paletteWanted && (
        <Suspense fallback={null}>
          <CommandPalette open={paletteOpen} onOpenChange={setPaletteOpen} commands={commands} onRun={run} />
        </Suspense>
      )}
      <PendingInvitationsDialog
        onJoined={(teamId) => {
          switchTeam(teamId);
          void navigate(teamPath('/dashboard', teamId));
        }}
      />
    </TeamContext>
  );
}

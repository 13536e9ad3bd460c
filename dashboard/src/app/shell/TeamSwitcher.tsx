import { Check, ChevronsUpDown, Plus } from 'lucide-react';

import type { Organization } from '../../api/gen/model';
import { cn } from '../../lib/cn';
import { ROLE_LABELS } from '../../lib/roles';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';

interface TeamSwitcherProps {
  team: Organization | null;
  teams: Organization[];
  onSwitch: (id: string) => void;
  onCreate: () => void;
  /** The top bar's narrow form: the name only. */
  compact?: boolean;
}

/** The current team's name and role; opens the list of the user's teams and "Create a team". */
export function TeamSwitcher({ team, teams, onSwitch, onCreate, compact = false }: TeamSwitcherProps) {
  const initial = (team?.name.trim()[0] ?? '?').toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className={cn(
          'flex min-w-0 items-center gap-2 rounded-lg text-left hover:bg-muted',
          compact ? 'max-w-full px-1.5 py-1' : 'w-full border border-line bg-surface px-2 py-1.5 shadow-xs',
        )}
      >
        <span aria-hidden="true" className={cn('flex shrink-0 items-center justify-center rounded-md bg-accent font-semibold text-white', compact ? 'size-6 text-xs' : 'size-7 text-sm')}>
          {initial}
        </span>
        <span className="min-w-0 flex-1">
          <span className="block truncate text-sm font-semibold text-fg" data-testid="current-team">
            {team?.name ?? 'No team yet'}
          </span>
          {!compact && team?.myRole && <span className="block text-xs text-fg-subtle">{ROLE_LABELS[team.myRole]}</span>}
          <span className="sr-only"> · Switch team</span>
        </span>
        <ChevronsUpDown aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" label="Teams">
        <DropdownMenuLabel>Your teams</DropdownMenuLabel>
        {teams.map((t) => (
          <DropdownMenuItem key={t.id} onSelect={() => onSwitch(t.id)}>
            <span aria-hidden="true" className="flex w-4 justify-center">
              {t.id === team?.id && <Check className="text-accent-fg" />}
            </span>
            <span className="truncate">{t.name}</span>
            {t.id === team?.id && <span className="sr-only"> (current)</span>}
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={onCreate}>
          <Plus aria-hidden="true" />
          Create a team
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { LogOut, Monitor, Moon, Sun, User } from 'lucide-react';
import { useNavigate } from 'react-router';

import { signOut } from '../../features/auth/queries';
import { teamPath } from '../../features/team/TeamContext';
import type { ThemePreference } from '../../lib/theme';
import { DropdownMenu, DropdownMenuContent, DropdownMenuGroupLabel, DropdownMenuItem, DropdownMenuLabel, DropdownMenuRadioGroup, DropdownMenuSeparator, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';

const THEME_OPTIONS = [
  { value: 'light', label: 'Light', icon: <Sun aria-hidden="true" /> },
  { value: 'dark', label: 'Dark', icon: <Moon aria-hidden="true" /> },
  { value: 'system', label: 'System', icon: <Monitor aria-hidden="true" /> },
] as const;

interface UserMenuProps {
  name: string;
  email: string;
  teamId: string | undefined;
  theme: ThemePreference;
  onTheme: (theme: ThemePreference) => void;
}

/** The signed-in person: profile, theme and sign out. */
export function UserMenu({ name, email, teamId, theme, onTheme }: UserMenuProps) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const initial = (name.trim()[0] ?? '?').toUpperCase();
  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="flex items-center gap-2 rounded-full p-0.5 hover:bg-muted sm:rounded-lg sm:py-1 sm:pr-2 sm:pl-1">
        <span className="sr-only">Account menu for </span>
        <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-full bg-gradient-to-br from-indigo-500 to-violet-600 text-sm font-semibold text-white">
          {initial}
        </span>
        <span className="sr-only max-w-36 truncate text-sm font-medium text-fg md:not-sr-only md:block">{name}</span>
      </DropdownMenuTrigger>
      <DropdownMenuContent label="Account">
        <DropdownMenuLabel>
          <span className="block truncate font-medium text-fg">{name}</span>
          <span className="block truncate">{email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void navigate(teamPath('/dashboard/profile', teamId))}>
          <User aria-hidden="true" />
          Profile
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuGroupLabel>Theme</DropdownMenuGroupLabel>
        <DropdownMenuRadioGroup label="Theme" value={theme} onValueChange={onTheme} options={THEME_OPTIONS} />
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void signOut(queryClient)}>
          <LogOut aria-hidden="true" />
          Sign out
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}

import { createContext, useContext } from 'react';

import type { Organization, User } from '../../api/gen/model';

export interface TeamContextValue {
  user: User;
  teams: Organization[];
  /** The team shown; null when the user has none yet. */
  team: Organization | null;
  switchTeam: (teamId: string) => void;
}

export const TeamContext = createContext<TeamContextValue | null>(null);

export function useTeamContext(): TeamContextValue {
  const value = useContext(TeamContext);
  if (value === null) throw new Error('useTeamContext is used outside the dashboard shell');
  return value;
}

/** The current team, for screens that only render when there is one. */
export function useCurrentTeam(): Organization {
  const { team } = useTeamContext();
  if (team === null) throw new Error('No team selected');
  return team;
}

// The shell and the palette (lib/) build team paths too, so the rule lives in lib/teamPath.ts.
export { teamPath } from '../../lib/teamPath';

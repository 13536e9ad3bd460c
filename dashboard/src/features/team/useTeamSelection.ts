import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import { useSearchParams } from 'react-router';

import type { Organization, User } from '../../api/gen/model';
import { teamsQueryOptions } from './queries';
import { rememberTeam, rememberedTeam, selectTeam } from './teamSelection';

/** Resolves the team to show from the URL, the remembered team and the user's teams. */
export function useTeamSelection(user: User | undefined) {
  const teams = useQuery({ ...teamsQueryOptions(), enabled: user !== undefined });
  const [searchParams, setSearchParams] = useSearchParams();
  const urlTeamId = searchParams.get('teamId');

  const list = useMemo(() => teams.data ?? [], [teams.data]);
  const choice = useMemo(
    () => (user && teams.data ? selectTeam(list.map((t) => t.id), urlTeamId, rememberedTeam(user.id)) : null),
    [user, teams.data, list, urlTeamId],
  );

  useEffect(() => {
    if (!choice || !user) return;
    if (choice.teamId) rememberTeam(user.id, choice.teamId);
    if (choice.replaceUrl) {
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (choice.teamId) next.set('teamId', choice.teamId);
          else next.delete('teamId');
          return next;
        },
        { replace: true },
      );
    }
  }, [choice, user, setSearchParams]);

  const switchTeam = useCallback(
    (teamId: string) => {
      if (user) rememberTeam(user.id, teamId);
      setSearchParams((params) => {
        const next = new URLSearchParams(params);
        next.set('teamId', teamId);
        next.delete('page');
        return next;
      });
    },
    [user, setSearchParams],
  );

  const team: Organization | null = choice?.teamId ? (list.find((t) => t.id === choice.teamId) ?? null) : null;
  return { teams, list, team, switchTeam };
}

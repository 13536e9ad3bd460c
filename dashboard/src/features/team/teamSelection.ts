// Which team the dashboard shows (spec section 5): a teamId in the URL only if it is one of the
// user's teams; otherwise the team remembered for this user; otherwise the first team.

const REMEMBERED_PREFIX = 'betty.team.';

export interface TeamChoice {
  /** The team to show; null when the user has no team (lead them to create one). */
  teamId: string | null;
  /** True when the URL's teamId must be rewritten to teamId (missing, or not one of theirs). */
  replaceUrl: boolean;
}

export function selectTeam(teamIds: readonly string[], urlTeamId: string | null, rememberedTeamId: string | null): TeamChoice {
  if (teamIds.length === 0) {
    return { teamId: null, replaceUrl: urlTeamId !== null };
  }
  if (urlTeamId !== null && teamIds.includes(urlTeamId)) {
    return { teamId: urlTeamId, replaceUrl: false };
  }
  const teamId = rememberedTeamId !== null && teamIds.includes(rememberedTeamId) ? rememberedTeamId : teamIds[0]!;
  return { teamId, replaceUrl: true };
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The team this user last worked in on this browser (per user, so a shared browser keeps them apart). */
export function rememberedTeam(userId: string): string | null {
  return storage()?.getItem(REMEMBERED_PREFIX + userId) ?? null;
}

export function rememberTeam(userId: string, teamId: string): void {
  storage()?.setItem(REMEMBERED_PREFIX + userId, teamId);
}

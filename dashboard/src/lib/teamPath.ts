/** A dashboard path that keeps the current team in its query string. */
export function teamPath(path: string, teamId: string | null | undefined): string {
  if (!teamId) return path;
  return `${path}${path.includes('?') ? '&' : '?'}teamId=${encodeURIComponent(teamId)}`;
}

// The pages a person opened lately, newest first, per user on this browser: the command palette
// offers them under "Recent". Only screens that exist are recorded (the shell records what the
// navigation model knows), so a recent item never leads nowhere.

export interface RecentEntry {
  /** Path and query, e.g. /dashboard/members?teamId=t1. */
  to: string;
  label: string;
}

const PREFIX = 'betty.recent.';
export const RECENT_LIMIT = 5;

/** `entry` first, without an older copy of itself, at most `limit` long. */
export function addRecent(list: readonly RecentEntry[], entry: RecentEntry, limit = RECENT_LIMIT): RecentEntry[] {
  return [entry, ...list.filter((e) => e.to !== entry.to)].slice(0, limit);
}

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function readRecent(userId: string): RecentEntry[] {
  try {
    const parsed: unknown = JSON.parse(storage()?.getItem(PREFIX + userId) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((e): e is RecentEntry => typeof e === 'object' && e !== null && typeof (e as RecentEntry).to === 'string' && typeof (e as RecentEntry).label === 'string' && (e as RecentEntry).to.startsWith('/'));
  } catch {
    return [];
  }
}

export function recordRecent(userId: string, entry: RecentEntry): void {
  storage()?.setItem(PREFIX + userId, JSON.stringify(addRecent(readRecent(userId), entry)));
}

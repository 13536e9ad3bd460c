// The canvas's undo history as pure values: what `useHistory` keeps, and what its tests check.

export const HISTORY_LIMIT = 100;
/** Edits with the same merge key this close together are one undo step (a burst of arrow keys). */
export const MERGE_WINDOW_MS = 1000;

export interface History<T> {
  past: T[];
  present: T;
  future: T[];
  /** The merge key of the last recorded edit and when it was recorded. */
  last?: { key: string; at: number };
}

export function start<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/**
 * An edit: `next` becomes the present, the old present goes into the past (unless the edit merges
 * with the one before it), and what was undone is forgotten.
 */
export function record<T>(h: History<T>, next: T, { merge, now = Date.now() }: { merge?: string; now?: number } = {}): History<T> {
  if (next === h.present) return h;
  const merging = merge !== undefined && h.last?.key === merge && now - h.last.at < MERGE_WINDOW_MS && h.future.length === 0;
  const past = merging ? h.past : [...h.past.slice(-HISTORY_LIMIT + 1), h.present];
  return { past, present: next, future: [], ...(merge !== undefined ? { last: { key: merge, at: now } } : {}) };
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1]!, future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0]!, future: h.future.slice(1) };
}

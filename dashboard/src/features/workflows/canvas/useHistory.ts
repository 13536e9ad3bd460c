import { useCallback, useRef, useState } from 'react';

import * as H from './history';

/**
 * The canvas's one undo history (history.ts): `commit` records an edit (edits with one `merge`
 * key in a quick burst are one step), `undo`/`redo` step through them; each change is handed to
 * `onChange` with the value before it (the save queue). `reset` replaces the value and forgets
 * the history (after reloading what the server stores).
 */
export function useHistory<T>(initial: () => T, onChange: (value: T, before: T) => void) {
  const [h, setH] = useState<H.History<T>>(() => H.start(initial()));
  // The latest history, read by callbacks between renders (two edits in one event see each other).
  const ref = useRef(h);
  const changed = useRef(onChange);
  changed.current = onChange;

  const go = useCallback((next: H.History<T>) => {
    const before = ref.current;
    if (next === before) return;
    ref.current = next;
    setH(next);
    if (next.present !== before.present) changed.current(next.present, before.present);
  }, []);

  const commit = useCallback((next: T, opts?: { merge?: string }) => go(H.record(ref.current, next, opts)), [go]);
  const undo = useCallback(() => go(H.undo(ref.current)), [go]);
  const redo = useCallback(() => go(H.redo(ref.current)), [go]);
  const reset = useCallback((next: T) => {
    ref.current = H.start(next);
    setH(ref.current);
  }, []);
  /** The value now (newer than the last render's after an edit in the same event). */
  const current = useCallback(() => ref.current.present, []);

  return { value: h.present, current, commit, undo, redo, reset, canUndo: h.past.length > 0, canRedo: h.future.length > 0 };
}

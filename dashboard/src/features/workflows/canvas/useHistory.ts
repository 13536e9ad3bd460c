import { useCallback, useRef, useState } from 'react';

const HISTORY_LIMIT = 100;

/**
 * The canvas's one undo history: `commit` records an edit, `undo`/`redo` step through them; each
 * change (an edit, an undo, a redo) is handed to `onChange` (the save queue). `reset` replaces
 * the value and forgets the history (after reloading what the server stores).
 */
export function useHistory<T>(initial: () => T, onChange: (value: T) => void) {
  const [value, setValue] = useState<T>(initial);
  const ref = useRef(value);
  ref.current = value;
  const history = useRef<{ past: T[]; future: T[] }>({ past: [], future: [] });
  const [, bump] = useState(0);
  const changed = useRef(onChange);
  changed.current = onChange;

  const commit = useCallback((next: T) => {
    if (next === ref.current) return;
    history.current.past = [...history.current.past.slice(-HISTORY_LIMIT + 1), ref.current];
    history.current.future = [];
    ref.current = next;
    setValue(next);
    changed.current(next);
  }, []);

  const undo = useCallback(() => {
    const prev = history.current.past.pop();
    if (prev === undefined) return;
    history.current.future.push(ref.current);
    ref.current = prev;
    setValue(prev);
    changed.current(prev);
    bump((x) => x + 1);
  }, []);

  const redo = useCallback(() => {
    const next = history.current.future.pop();
    if (next === undefined) return;
    history.current.past.push(ref.current);
    ref.current = next;
    setValue(next);
    changed.current(next);
    bump((x) => x + 1);
  }, []);

  const reset = useCallback((next: T) => {
    history.current = { past: [], future: [] };
    ref.current = next;
    setValue(next);
  }, []);

  return { value, ref, commit, undo, redo, reset, canUndo: history.current.past.length > 0, canRedo: history.current.future.length > 0 };
}

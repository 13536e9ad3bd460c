import { useEffect, useRef } from 'react';

export interface CanvasKeyHandlers {
  undo: () => void;
  redo: () => void;
  remove: (id: string) => void;
  /** The selected steps when the key is pressed. */
  selectedNow: () => string[];
  fit: () => void;
}

/**
 * Keyboard (on the whole page while the canvas is open, outside fields and dialogs): Delete or
 * Backspace removes the selected steps, Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl+Y redoes, F fits the view.
 * The steps to remove are the store's selection when the key is pressed (a copy kept through
 * onSelectionChange, an effect, could lag a quick key press: Delete right after a click on a
 * far-out card sometimes removed nothing).
 */
export function useCanvasKeys(handlers: CanvasKeyHandlers) {
  const keys = useRef(handlers);
  keys.current = handlers;
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"], aside')) return;
      const k = keys.current;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) k.redo();
        else k.undo();
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        k.redo();
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        const ids = k.selectedNow();
        if (ids.length === 0) return;
        e.preventDefault();
        for (const id of ids) k.remove(id);
      } else if (e.key.toLowerCase() === 'f' && !mod && !e.altKey) {
        k.fit();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}

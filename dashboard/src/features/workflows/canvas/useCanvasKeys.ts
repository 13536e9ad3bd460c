import { useEffect, useRef } from 'react';

export interface CanvasKeyHandlers {
  undo: () => void;
  redo: () => void;
  remove: (id: string) => void;
  /** The selected steps when the key is pressed. */
  selectedNow: () => string[];
  fit: () => void;
  duplicate: (ids: string[]) => void;
  nudge: (ids: string[], dx: number, dy: number) => void;
  /** Escape: closes the step panel (else the Runs, else the Prompt panel), or clears the selection when none is open. */
  escape: () => void;
  /** Shift+F10 or the ContextMenu key on a focused node or edge. */
  openMenu: (el: HTMLElement) => void;
}

/** One arrow press moves the selected steps this far; with Shift, NUDGE_LARGE. */
export const NUDGE = 10;
export const NUDGE_LARGE = 50;

/** The list the "Keyboard shortcuts" button shows: one place for what the keys do. */
export const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: 'Delete or Backspace', what: 'Delete the selected steps' },
  { keys: 'Ctrl/⌘ + Z', what: 'Undo' },
  { keys: 'Ctrl/⌘ + Shift + Z or Ctrl/⌘ + Y', what: 'Redo' },
  { keys: 'Ctrl/⌘ + D', what: 'Duplicate the selected steps' },
  { keys: 'Arrow keys (Shift: further)', what: 'Move the selected steps' },
  { keys: 'Escape', what: 'Close the open panel, or clear the selection' },
  { keys: 'F', what: 'Fit the whole workflow in view' },
  { keys: 'Shift + F10 or the Menu key', what: 'Open the menu of the focused step or connection' },
  { keys: 'Right-click', what: 'Open the menu of a step or connection' },
];

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Where keys belong to something else: a field, a dialog, a menu. */
const NOT_OURS = 'input, textarea, select, [contenteditable="true"], [role="dialog"], [role="alertdialog"], [role="menu"]';

/**
 * Keyboard (on the whole page while the canvas is open, outside fields, dialogs and panels — Escape
 * works in a panel too). The steps acted on are the store's selection when the key is pressed (a
 * copy kept through onSelectionChange, an effect, could lag a quick key press: Delete right after
 * a click on a far-out card sometimes removed nothing).
 */
export function useCanvasKeys(handlers: CanvasKeyHandlers) {
  const keys = useRef(handlers);
  keys.current = handlers;
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || target?.closest(NOT_OURS)) return;
      const k = keys.current;
      if (e.key === 'Escape') {
        k.escape();
        return;
      }
      if (target?.closest('aside')) return;
      const mod = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      const arrow = ARROWS[e.key];
      if (mod && key === 'z') {
        e.preventDefault();
        if (e.shiftKey) k.redo();
        else k.undo();
      } else if (mod && key === 'y') {
        e.preventDefault();
        k.redo();
      } else if (mod && key === 'd') {
        e.preventDefault(); // the browser's bookmark
        const ids = k.selectedNow();
        if (ids.length > 0) k.duplicate(ids);
      } else if (e.key === 'ContextMenu' || (e.shiftKey && e.key === 'F10')) {
        const el = target?.closest<HTMLElement>('.react-flow__node, .react-flow__edge');
        if (!el) return;
        e.preventDefault();
        k.openMenu(el);
      } else if (arrow && !mod && !e.altKey) {
        const ids = k.selectedNow();
        if (ids.length === 0) return;
        // before React Flow's own arrow handling on a focused node, which would move the cards
        // without an edit to save or undo
        e.preventDefault();
        e.stopPropagation();
        const step = e.shiftKey ? NUDGE_LARGE : NUDGE;
        k.nudge(ids, arrow[0] * step, arrow[1] * step);
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        const ids = k.selectedNow();
        if (ids.length === 0) return;
        e.preventDefault();
        for (const id of ids) k.remove(id);
      } else if (key === 'f' && !mod && !e.altKey) {
        k.fit();
      }
    };
    // Capture: the canvas's keys run before React Flow's handlers on a focused node.
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, []);
}

import { Copy, LayoutGrid, Maximize, Pencil, Plus, Trash2 } from 'lucide-react';

import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../components/ui/dropdown-menu';
import type { Graph } from '../graph';
import type { EdgeActions } from './AddStepEdge';
import type { CanvasActions } from './context';
import { specOf } from './nodes/registry';

/** What was right-clicked (or opened with Shift+F10 / the ContextMenu key), and where. */
export interface MenuTarget {
  kind: 'node' | 'edge' | 'pane';
  id: string;
  x: number;
  y: number;
  /** Opened from the keyboard: the focused card or connection, focused again when the menu closes. */
  returnTo?: HTMLElement;
}

const ICONS = { edit: Pencil, duplicate: Copy, add: Plus, insert: Plus, delete: Trash2, fit: Maximize, tidy: LayoutGrid } as const;

export interface MenuItem {
  label: string;
  icon: keyof typeof ICONS;
  onSelect: () => void;
  disabled?: boolean;
  danger?: boolean;
}


/** The canvas's context menu, the dropdown menu opened at the pointer. */
export function CanvasMenu({ target, label, items, onClose }: { target: MenuTarget | null; label: string; items: MenuItem[]; onClose: () => void }) {
  if (!target) return null;
  return (
    <DropdownMenu
      open
      onOpenChange={(open) => {
        if (open) return;
        target.returnTo?.focus();
        onClose();
      }}
    >
      <DropdownMenuTrigger asChild>
        <span aria-hidden="true" className="pointer-events-none fixed size-px" style={{ left: target.x, top: target.y }} />
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" label={label}>
        {items.map((item) => {
          const Icon = ICONS[item.icon];
          return (
            <DropdownMenuItem key={item.label} onSelect={item.onSelect} {...(item.disabled ? { disabled: true } : {})} {...(item.danger ? { danger: true } : {})}>
              <Icon aria-hidden="true" />
              {item.label}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}


/** The menu's items for what was right-clicked; each runs what the card, the edge or the header would. */
export function menuItemsFor(
  target: MenuTarget | null,
  g: Graph,
  run: { actions: CanvasActions; edgeActions: EdgeActions; duplicate: (ids: string[]) => void; deleteEdge: (id: string) => void; fit: () => void; tidy: () => void },
): MenuItem[] {
  if (!target) return [];
  if (target.kind === 'pane') {
    return [
      { label: 'Fit view', icon: 'fit', onSelect: run.fit },
      { label: 'Tidy up', icon: 'tidy', onSelect: run.tidy },
    ];
  }
  if (target.kind === 'edge') {
    const e = g.edges.find((x) => x.id === target.id);
    // From a Conditional Path the edge's plus adds a path (AddStepEdge); the menu says so.
    const fromPath = g.nodes.find((n) => n.id === e?.source)?.type === 'conditional-path';
    return [
      { label: fromPath ? 'Add a path' : 'Insert a step here', icon: 'insert', onSelect: () => run.edgeActions.onPlus(target.id) },
      { label: 'Delete connection', icon: 'delete', danger: true, onSelect: () => run.deleteEdge(target.id) },
    ];
  }
  const n = g.nodes.find((x) => x.id === target.id);
  if (!n) return [];
  const spec = specOf(n.type);
  const isPath = n.type === 'conditional-path';
  const once = n.type === 'start' || n.type === 'contacts';
  return [
    { label: 'Edit', icon: 'edit', disabled: !spec.Edit || !!spec.notEditable, onSelect: () => run.actions.edit(n.id) },
    { label: 'Duplicate', icon: 'duplicate', disabled: once, onSelect: () => run.duplicate([n.id]) },
    isPath
      ? { label: 'Add a path', icon: 'add', onSelect: () => run.actions.addPath(n.id) }
      : { label: 'Add a step after', icon: 'add', disabled: !!spec.terminal || run.actions.usedSources.has(n.id), onSelect: () => run.actions.addAfter(n.id) },
    { label: 'Delete', icon: 'delete', danger: true, disabled: n.type === 'start', onSelect: () => run.actions.remove(n.id) },
  ];
}

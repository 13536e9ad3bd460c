import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';

import type { Graph, Violation } from '../graph';
import { describeBlockers } from './blockers';

/** How many problems the open list shows (a 300-step draft can have hundreds). */
const SHOWN = 50;

/**
 * What stops the workflow from running, under the canvas: one line with the count (as tall as a
 * line of text, so the canvas keeps its height), opening to
 * one button per problem ("<step label>: <reason>") that selects the step and zooms onto it (a
 * problem of the whole workflow shows all of it).
 * The list is only built while open, so a closed list costs nothing as the graph changes.
 */
export function Blockers({ problems, graph, onFocus }: { problems: readonly Violation[]; graph: Graph; onFocus: (nodeId: string | undefined) => void }) {
  const [open, setOpen] = useState(false);
  if (problems.length === 0) return null;
  const blockers = open ? describeBlockers(problems.slice(0, SHOWN), graph) : [];
  return (
    <details data-testid="blockers" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} className="shrink-0 text-sm">
      <summary className="flex cursor-pointer items-center gap-2 font-medium text-warning-fg">
        <TriangleAlert aria-hidden="true" className="size-4 shrink-0" />
        What stops it from running ({problems.length})
      </summary>
      {open && (
        <ul className="mt-1 max-h-40 space-y-0.5 overflow-y-auto rounded-lg border border-warning-line bg-warning-subtle p-1.5">
          {blockers.map((b) => (
            <li key={b.key}>
              <button type="button" onClick={() => onFocus(b.nodeId)} className="w-full rounded px-1.5 py-1 text-left text-fg-soft hover:bg-surface hover:text-fg">
                <span className="font-semibold text-fg">{b.label}</span>: {b.message}
              </button>
            </li>
          ))}
          {problems.length > SHOWN && <li className="px-1.5 py-1 text-fg-muted">and {problems.length - SHOWN} more; fix these first.</li>}
        </ul>
      )}
    </details>
  );
}

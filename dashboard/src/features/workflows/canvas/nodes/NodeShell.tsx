import { Handle, Position, useStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { MoreHorizontal, Plus, TriangleAlert } from 'lucide-react';
import { memo } from 'react';

import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../../components/ui/dropdown-menu';
import { cn } from '../../../../lib/cn';
import { str, type Data } from '../../graph';
import { useCanvas } from '../context';
import { StepActivity, useOnPath } from '../live/RunOverlay';
import { kindTint, type NodeKindSpec } from './types';

/** Below this zoom a card's text is unreadable: cards draw as a coloured box with a big title. */
export const LOW_DETAIL_ZOOM = 0.35;
const farSelector = (s: ReactFlowState) => s.transform[2] < LOW_DETAIL_ZOOM;

/**
 * The frame every card shares: border, icon and kind name in its kind's colour, its label, what
 * it says or does (the kind's View), what stops it from running (the same rules as the blockers
 * list), the Edit/Delete menu, and the handles (the live activity badge goes before the menu).
 * Flows run top to bottom: a node's incoming edge enters at the top, its next step leaves
 * from the bottom.
 */
export function makeNodeComponent(spec: NodeKindSpec) {
  function KindNode({ id, data, selected }: NodeProps) {
    const canvas = useCanvas();
    const far = useStore(farSelector);
    const onPath = useOnPath(id); // a test run's call went through this step
    const d = data as Data;
    const View = spec.View;
    if (spec.kind === 'invisible')
      return (
        <div className="size-px" aria-hidden="true">
          <Handle type="source" position={Position.Bottom} isConnectable={false} className="!opacity-0" />
        </div>
      );
    const used = canvas.usedSources.has(id) && spec.kind !== 'conditional-path';
    const small = spec.kind === 'start';
    const title = str(d, 'nodeLabel') || spec.label;
    const problem = canvas.problems.get(id)?.[0];
    const Icon = spec.icon;
    if (far)
      // Zoomed far out (a big flow fitted on screen): a light card keeps panning smooth. It keeps
      // the kind's colour and icon, and a warning sign when the step has a problem.
      return (
        <div data-testid={`node-${id}`} data-kind={spec.kind} data-on-path={onPath || undefined} title="Click to zoom in" onClick={() => canvas.focus(id)} className={cn('relative flex cursor-zoom-in items-center justify-center gap-4 rounded-xl border-[6px] bg-surface p-4', onPath && 'ring-8 ring-success/60', selected && 'ring-8 ring-accent')} style={{ width: spec.width, height: spec.height, borderColor: spec.color }}>
          <StepActivity nodeId={id} large />
          {spec.kind !== 'start' && spec.kind !== 'contacts' && <Handle type="target" position={Position.Top} isConnectable={false} className="!opacity-0" />}
          {!small && <Icon aria-hidden="true" className="size-16 shrink-0" style={{ color: spec.color }} />}
          <p className="line-clamp-2 text-center text-4xl font-semibold text-fg">{title}</p>
          {problem && <TriangleAlert role="img" aria-label="Has a problem" className={cn('size-14 shrink-0 text-warning-fg', small && 'absolute left-full ml-4')} />}
          {spec.kind !== 'contacts' && !spec.terminal && <Handle type="source" position={Position.Bottom} isConnectable={false} className="!opacity-0" />}
        </div>
      );
    return (
      <div
        data-testid={`node-${id}`}
        data-kind={spec.kind}
        data-on-path={onPath || undefined}
        className={cn('group/node relative flex flex-col rounded-xl border-2 bg-surface shadow-sm', onPath && 'ring-4 ring-success/60', selected && 'ring-2 ring-accent ring-offset-2 ring-offset-canvas', small ? 'items-center justify-center' : 'p-3')}
        style={{ width: spec.width, height: spec.height, borderColor: spec.color }}
      >
        <StepActivity nodeId={id} />
        {spec.kind !== 'start' && spec.kind !== 'contacts' && (
          <div className="group/target absolute -top-2 left-1/2 -translate-x-1/2">
            <Handle type="target" position={Position.Top} className="!relative !top-auto !bottom-auto !left-auto !size-3 !translate-x-0 !translate-y-0 !border-2 !bg-surface" style={{ borderColor: spec.color }} />
            {!canvas.readOnly && canvas.hasIncoming.has(id) && (
              <button
                type="button"
                className="nodrag absolute bottom-3 left-1/2 hidden -translate-x-1/2 rounded bg-danger px-1.5 py-0.5 text-sm font-semibold text-white group-hover/target:block focus:block"
                onClick={() => canvas.deleteIncoming(id)}
              >
                DELETE
              </button>
            )}
          </div>
        )}
        {small ? (
          <View id={id} data={d} />
        ) : (
          <>
            <div className="flex items-center gap-2">
              <span className="flex size-6 shrink-0 items-center justify-center rounded-md" style={{ background: kindTint(spec.color), color: spec.color }} aria-hidden="true">
                <Icon className="size-3.5" />
              </span>
              <span className="truncate text-sm font-medium text-fg-muted">{spec.label}</span>
              {problem && <TriangleAlert aria-hidden="true" className="size-4 shrink-0 text-warning-fg" />}
              {/* room for the step's live activity badge, then the menu, at the top right */}
              <span className="ml-auto" />
              {!canvas.readOnly && (
                <DropdownMenu>
                  <DropdownMenuTrigger className="nodrag rounded p-1 text-fg-subtle hover:bg-muted hover:text-fg" aria-label={`Actions for ${title}`}>
                    <MoreHorizontal aria-hidden="true" className="size-4" />
                  </DropdownMenuTrigger>
                  <DropdownMenuContent label={title}>
                    <DropdownMenuItem onSelect={() => canvas.edit(id)}>Edit</DropdownMenuItem>
                    <DropdownMenuItem danger onSelect={() => canvas.remove(id)}>
                      Delete
                    </DropdownMenuItem>
                  </DropdownMenuContent>
                </DropdownMenu>
              )}
            </div>
            <p className="mt-1 mb-1.5 truncate text-base font-semibold text-fg">{title}</p>
          </>
        )}
        {!small && (
          <div className="flex min-h-0 flex-1 flex-col overflow-hidden">
            <View id={id} data={d} />
          </div>
        )}
        {problem && (
          // On a card, its bottom line; beside the small Start card, a note to its right (above
          // and below it are its edges).
          <p className={cn('flex items-start gap-1.5 border-warning-line bg-warning-subtle px-3 py-1.5 text-sm text-warning-fg', small ? 'absolute top-1/2 left-full ml-3 w-60 -translate-y-1/2 rounded-lg border' : '-mx-3 mt-2 -mb-3 rounded-b-[10px] border-t')}>
            <TriangleAlert aria-hidden="true" className="mt-px size-3.5 shrink-0" />
            <span className="line-clamp-2">{problem}</span>
          </p>
        )}
        {spec.kind !== 'contacts' && !spec.terminal && (
          <>
            <Handle type="source" position={Position.Bottom} isConnectable={!used && !canvas.readOnly} className="!size-3 !border-2 !bg-surface" style={{ borderColor: spec.color }} />
            {!used && !canvas.readOnly && (
              <button
                type="button"
                aria-label={`Add a step after ${title}`}
                className="nodrag absolute -bottom-9 left-1/2 flex size-6 -translate-x-1/2 items-center justify-center rounded-full border border-line-strong bg-surface text-fg-soft shadow-xs hover:bg-muted"
                onClick={() => canvas.addAfter(id)}
              >
                <Plus aria-hidden="true" className="size-3.5" />
              </button>
            )}
          </>
        )}
      </div>
    );
  }
  KindNode.displayName = `${spec.label.replace(/\W/g, '')}Node`;
  return memo(KindNode);
}

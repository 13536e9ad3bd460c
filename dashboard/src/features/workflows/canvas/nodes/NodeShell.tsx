import { Handle, Position, useStore, type NodeProps, type ReactFlowState } from '@xyflow/react';
import { MoreHorizontal, Plus } from 'lucide-react';
import { memo } from 'react';

import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../../../components/ui/dropdown-menu';
import { cn } from '../../../../lib/cn';
import { str, type Data } from '../../graph';
import { useCanvas } from '../context';
import type { NodeKindSpec } from './types';

/** Below this zoom a card's text is unreadable: cards draw as a coloured box with a big title. */
export const LOW_DETAIL_ZOOM = 0.35;
const farSelector = (s: ReactFlowState) => s.transform[2] < LOW_DETAIL_ZOOM;

/**
 * The frame every card shares: border in its kind's colour, title, the Edit/Delete menu, and the
 * handles. Flows run top to bottom: a node's incoming edge enters at the top, its next step
 * leaves from the bottom.
 */
export function makeNodeComponent(spec: NodeKindSpec) {
  function KindNode({ id, data, selected }: NodeProps) {
    const canvas = useCanvas();
    const far = useStore(farSelector);
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
    if (far)
      // Zoomed far out (a big flow fitted on screen): a light card keeps panning smooth.
      return (
        <div data-testid={`node-${id}`} data-kind={spec.kind} title="Click to zoom in" onClick={() => canvas.focus(id)} className={cn('flex cursor-zoom-in items-center justify-center rounded-xl border-[6px] bg-surface p-4', selected && 'ring-8 ring-accent')} style={{ width: spec.width, height: spec.height, borderColor: spec.color }}>
          {spec.kind !== 'start' && spec.kind !== 'contacts' && <Handle type="target" position={Position.Top} isConnectable={false} className="!opacity-0" />}
          <p className="line-clamp-2 text-center text-4xl font-semibold text-fg">{title}</p>
          {spec.kind !== 'contacts' && !spec.terminal && <Handle type="source" position={Position.Bottom} isConnectable={false} className="!opacity-0" />}
        </div>
      );
    return (
      <div
        data-testid={`node-${id}`}
        data-kind={spec.kind}
        className={cn('group/node relative flex flex-col rounded-xl border-2 bg-surface shadow-sm', selected && 'ring-2 ring-accent ring-offset-2 ring-offset-canvas', small ? 'items-center justify-center' : 'p-3')}
        style={{ width: spec.width, height: spec.height, borderColor: spec.color }}
      >
        {spec.kind !== 'start' && spec.kind !== 'contacts' && (
          <div className="group/target absolute -top-2 left-1/2 -translate-x-1/2">
            <Handle type="target" position={Position.Top} className="!relative !top-auto !bottom-auto !left-auto !size-3 !translate-x-0 !translate-y-0 !border-2 !bg-surface" style={{ borderColor: spec.color }} />
            {!canvas.readOnly && canvas.hasIncoming.has(id) && (
              <button
                type="button"
                className="nodrag absolute bottom-3 left-1/2 hidden -translate-x-1/2 rounded bg-danger px-1.5 py-0.5 text-[10px] font-semibold text-white group-hover/target:block focus:block"
                onClick={() => canvas.deleteIncoming(id)}
              >
                DELETE
              </button>
            )}
          </div>
        )}
        {!small && (
          <div className="mb-2 flex items-center justify-between gap-2">
            <p className="truncate text-sm font-semibold text-fg">
              <span className="mr-2 inline-block size-2 rounded-full align-middle" style={{ background: spec.color }} aria-hidden="true" />
              {title}
            </p>
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
        )}
        <View id={id} data={d} />
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

import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { Plus } from 'lucide-react';
import { createContext, memo, useContext } from 'react';

import { useEdgeOnPath } from './live/RunOverlay';

export interface EdgeActions {
  /** The plus on an edge: a step between its ends, or (from a conditional path) a new path. */
  onPlus: (edgeId: string) => void;
  readOnly: boolean;
}

export const EdgeContext = createContext<EdgeActions>({ onPlus: () => undefined, readOnly: true });

function AddStepEdgeView({ id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, style }: EdgeProps) {
  const { onPlus, readOnly } = useContext(EdgeContext);
  const onPath = useEdgeOnPath(source, target); // a test run's call went along it
  if (onPath) style = { ...style, stroke: 'var(--color-success)', strokeWidth: 4 };
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  return (
    <>
      <BaseEdge id={id} path={path} data-on-path={onPath || undefined} {...(markerEnd ? { markerEnd } : {})} {...(style ? { style } : {})} />
      {!readOnly && (
        <EdgeLabelRenderer>
          <button
            type="button"
            aria-label="Add a step here"
            data-testid={`edge-plus-${id}`}
            className="nodrag nopan pointer-events-auto absolute flex size-6 items-center justify-center rounded-full border border-line-strong bg-surface text-fg-soft shadow-xs hover:bg-muted"
            style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}
            onClick={() => onPlus(id)}
          >
            <Plus aria-hidden="true" className="size-3.5" />
          </button>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

/** At module scope, like nodeTypes. */
export const edgeTypes = { 'add-step': memo(AddStepEdgeView) };

import { BaseEdge, EdgeLabelRenderer, getBezierPath, MarkerType, type EdgeMarker, type EdgeProps, type Edge as RfEdge } from '@xyflow/react';
import { Plus } from 'lucide-react';
import { createContext, memo, useContext } from 'react';

import { str, type Graph } from '../graph';
import { useEdgeOnPath } from './live/RunOverlay';

export interface EdgeActions {
  /** The plus on an edge: a step between its ends, or (from a conditional path) a new path. */
  onPlus: (edgeId: string) => void;
  readOnly: boolean;
}

export const EdgeContext = createContext<EdgeActions>({ onPlus: () => undefined, readOnly: true });

/** What an edge carries beyond its ends: the condition of the branch it leads to, if any. */
export interface StepEdgeData extends Record<string, unknown> {
  condition?: string;
}

/** Every edge ends in an arrowhead, drawn in the edge colour (index.css, `--xy-edge-stroke`). */
export const EDGE_MARKER: EdgeMarker = { type: MarkerType.ArrowClosed, width: 16, height: 16 };

/**
 * The condition written on the edge from a Conditional Path to one of its branches: what the
 * customer says on that path (its description), else the branch's title. None for other edges.
 */
export function branchCondition(g: Graph): (edge: { source: string; target: string }) => string | undefined {
  const byId = new Map(g.nodes.map((n) => [n.id, n]));
  return ({ source, target }) => {
    if (byId.get(source)?.type !== 'conditional-path') return undefined;
    const branch = byId.get(target);
    if (!branch) return undefined;
    return str(branch.data, 'description').trim() || str(branch.data, 'nodeLabel').trim() || undefined;
  };
}

/** The graph's edges as React Flow draws them. */
export function flowEdges(g: Graph): RfEdge<StepEdgeData>[] {
  const condition = branchCondition(g);
  return g.edges.map((e) => {
    const c = condition(e);
    return { id: e.id, source: e.source, target: e.target, type: 'add-step', deletable: false, markerEnd: EDGE_MARKER, data: c ? { condition: c } : {} };
  });
}

/** How far above the target the condition label sits (canvas px): clear of the "+" at the middle. */
const LABEL_ABOVE_TARGET = 34;

function AddStepEdgeView({ id, source, target, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, style, data }: EdgeProps) {
  const { onPlus, readOnly } = useContext(EdgeContext);
  const onPath = useEdgeOnPath(source, target); // a test run's call went along it
  if (onPath) style = { ...style, stroke: 'var(--color-success)', strokeWidth: 4 };
  const [path, midX, midY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const condition = (data as StepEdgeData | undefined)?.condition;
  return (
    <>
      <BaseEdge id={id} path={path} data-on-path={onPath || undefined} {...(markerEnd ? { markerEnd } : {})} {...(style ? { style } : {})} />
      {(condition || !readOnly) && (
        <EdgeLabelRenderer>
          {condition && (
            <span
              data-testid={`edge-label-${id}`}
              title={condition}
              className="edge-condition nodrag nopan pointer-events-auto absolute max-w-44 truncate rounded-md border px-2 py-0.5 text-sm font-medium"
              style={{ transform: `translate(-50%, -50%) translate(${targetX}px, ${targetY - LABEL_ABOVE_TARGET}px)` }}
            >
              {condition}
            </span>
          )}
          {!readOnly && (
            <button
              type="button"
              aria-label="Add a step here"
              data-testid={`edge-plus-${id}`}
              className="nodrag nopan pointer-events-auto absolute flex size-6 items-center justify-center rounded-full border border-line-strong bg-surface text-fg-soft shadow-xs hover:bg-muted"
              style={{ transform: `translate(-50%, -50%) translate(${midX}px, ${midY}px)` }}
              onClick={() => onPlus(id)}
            >
              <Plus aria-hidden="true" className="size-3.5" />
            </button>
          )}
        </EdgeLabelRenderer>
      )}
    </>
  );
}

/** At module scope, like nodeTypes. */
export const edgeTypes = { 'add-step': memo(AddStepEdgeView) };

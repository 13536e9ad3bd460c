import { Graph as DagreGraph, layout as dagreLayout } from '@dagrejs/dagre';

import type { Graph } from '../graph';
import { specOf } from './nodes/registry';

/** Spec §2: flows are laid out bottom-to-top, rank spacing 400, node spacing 500. */
export const RANK_SPACING = 400;
export const NODE_SPACING = 500;

/** Answers the graph with every node placed by dagre (positions are top-left corners). */
export function layoutGraph(g: Graph): Graph {
  const d = new DagreGraph();
  d.setGraph({ rankdir: 'BT', ranksep: RANK_SPACING, nodesep: NODE_SPACING });
  d.setDefaultEdgeLabel(() => ({}));
  for (const n of g.nodes) {
    const spec = specOf(n.type);
    d.setNode(n.id, { width: spec.width, height: spec.height });
  }
  for (const e of g.edges) if (d.hasNode(e.source) && d.hasNode(e.target)) d.setEdge(e.source, e.target);
  dagreLayout(d);
  return {
    edges: g.edges,
    nodes: g.nodes.map((n) => {
      const p = d.node(n.id);
      const spec = specOf(n.type);
      return p ? { ...n, position: { x: Math.round(p.x - spec.width / 2), y: Math.round(p.y - spec.height / 2) } } : n;
    }),
  };
}

import { Graph as DagreGraph, layout as dagreLayout } from '@dagrejs/dagre';
import { getViewportForBounds, type Viewport } from '@xyflow/react';

import type { GNode, Graph } from '../graph';
import { specOf } from './nodes/registry';

/** Spec §2: flows are laid out bottom-to-top, rank spacing 400, node spacing 500. */
export const RANK_SPACING = 400;
export const NODE_SPACING = 500;

/**
 * Where a node was put by hand: dragging a card sets `flow_meta.placedByHand`, which saves with
 * the graph. The layout after an edit never moves such a node; "Tidy up" lays out every node and
 * clears the mark (and can be undone).
 */
export const PLACED_BY_HAND = 'placedByHand';

export function placedByHand(n: GNode): boolean {
  return n.flow_meta[PLACED_BY_HAND] === true;
}

/**
 * Answers the graph laid out by dagre (positions are top-left corners). A node placed by hand
 * keeps its position, and a node laid out follows its nearest ancestor placed by hand (the
 * steps after a card that was dragged move with it), so an edit never undoes a drag. With
 * `everything`, every node is laid out and none stays marked as placed by hand.
 */
export function layoutGraph(g: Graph, { everything = false }: { everything?: boolean } = {}): Graph {
  const d = new DagreGraph();
  d.setGraph({ rankdir: 'BT', ranksep: RANK_SPACING, nodesep: NODE_SPACING });
  d.setDefaultEdgeLabel(() => ({}));
  for (const n of g.nodes) {
    const spec = specOf(n.type);
    d.setNode(n.id, { width: spec.width, height: spec.height });
  }
  for (const e of g.edges) if (d.hasNode(e.source) && d.hasNode(e.target)) d.setEdge(e.source, e.target);
  dagreLayout(d);
  const laid = new Map<string, { x: number; y: number }>();
  for (const n of g.nodes) {
    const p = d.node(n.id);
    const spec = specOf(n.type);
    if (p) laid.set(n.id, { x: Math.round(p.x - spec.width / 2), y: Math.round(p.y - spec.height / 2) });
  }
  if (everything) {
    return {
      edges: g.edges,
      nodes: g.nodes.map((n) => {
        const { [PLACED_BY_HAND]: _, ...meta } = n.flow_meta;
        return { ...n, position: laid.get(n.id) ?? n.position, flow_meta: meta };
      }),
    };
  }
  // How far each hand-placed node sits from where dagre would put it.
  const shift = new Map<string, { x: number; y: number }>();
  for (const n of g.nodes) {
    const p = laid.get(n.id);
    if (placedByHand(n) && p) shift.set(n.id, { x: n.position.x - p.x, y: n.position.y - p.y });
  }
  const sources = new Map<string, string[]>();
  for (const e of g.edges) sources.set(e.target, [...(sources.get(e.target) ?? []), e.source]);
  /** The shift of the nearest ancestor placed by hand (breadth first), none when there is none. */
  const inherited = (id: string): { x: number; y: number } => {
    if (shift.size === 0) return { x: 0, y: 0 };
    const seen = new Set([id]);
    let level = sources.get(id) ?? [];
    while (level.length > 0) {
      const next: string[] = [];
      for (const s of level) {
        if (seen.has(s)) continue;
        seen.add(s);
        const found = shift.get(s);
        if (found) return found;
        next.push(...(sources.get(s) ?? []));
      }
      level = next;
    }
    return { x: 0, y: 0 };
  };
  return {
    edges: g.edges,
    nodes: g.nodes.map((n) => {
      const p = laid.get(n.id);
      if (!p || placedByHand(n)) return n;
      const by = inherited(n.id);
      return { ...n, position: { x: p.x + by.x, y: p.y + by.y } };
    }),
  };
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 2;
const FIT_PADDING = 0.15;

/**
 * The view that fits the graph in a box of this size, from the positions and the card sizes it
 * already knows: the canvas opens on it at once, instead of drawing at zoom 1 and fitting once
 * React Flow has measured every card (which drew the visible cards twice, in both levels of detail).
 */
export function fittedViewport(g: Graph, width: number, height: number): Viewport {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of g.nodes) {
    if (n.type === 'invisible') continue;
    const spec = specOf(n.type);
    minX = Math.min(minX, n.position.x);
    minY = Math.min(minY, n.position.y);
    maxX = Math.max(maxX, n.position.x + spec.width);
    maxY = Math.max(maxY, n.position.y + spec.height);
  }
  if (minX === Infinity) return { x: 0, y: 0, zoom: 1 };
  return getViewportForBounds({ x: minX, y: minY, width: maxX - minX, height: maxY - minY }, width, height, MIN_ZOOM, MAX_ZOOM, FIT_PADDING);
}

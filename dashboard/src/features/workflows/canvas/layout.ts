import { Graph as DagreGraph, layout as dagreLayout } from '@dagrejs/dagre';
import { getViewportForBounds, type Viewport } from '@xyflow/react';

import type { GNode, Graph } from '../graph';
import { specOf } from './nodes/registry';
import { SMALLEST_CARD_TEXT_PX } from './nodes/types';

/**
 * Flows read top to bottom: Start at the top, each step below the one before it, the branches of
 * a Conditional Path side by side. The spacing is ours, not the spec's (§2 says bottom-to-top
 * with rank 400 and node 500, which came from the old product and left gaps wider than the cards,
 * so a flow never fitted on screen at a readable zoom): 128 px between a card and the next one
 * down leaves room for the edge's "+", a branch's condition label and the arrowhead; 56 px
 * between cards side by side keeps branches apart without a gulf, and lets the Contacts card
 * (700 px) and Start (160 px) open side by side at zoom 1 on a laptop's canvas (936 px at 1280).
 */
export const RANK_SPACING = 128;
export const NODE_SPACING = 56;

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
  d.setGraph({ rankdir: 'TB', ranksep: RANK_SPACING, nodesep: NODE_SPACING });
  d.setDefaultEdgeLabel(() => ({}));
  // The Contacts card (who the run calls) goes first, so it sits on the top row left of Start,
  // where the call begins: both are in view when the canvas opens.
  const ordered = [...g.nodes.filter((n) => n.type === 'contacts'), ...g.nodes.filter((n) => n.type !== 'contacts')];
  for (const n of ordered) {
    const spec = specOf(n.type);
    d.setNode(n.id, { width: spec.width, height: spec.height });
  }
  // In reverse: dagre puts siblings it cannot tell apart in the reverse of the order it met their
  // edges, and a Conditional Path's branches should read left to right as they were added.
  for (const e of [...g.edges].reverse()) if (d.hasNode(e.source) && d.hasNode(e.target)) d.setEdge(e.source, e.target);
  dagreLayout(d);
  const laid = new Map<string, { x: number; y: number }>();
  for (const n of g.nodes) {
    const p = d.node(n.id);
    const spec = specOf(n.type);
    if (p) laid.set(n.id, { x: Math.round(p.x - spec.width / 2), y: Math.round(p.y - spec.height / 2) });
  }
  // Start sits at the bottom of its row, level with the Contacts card's foot, so its edge to the
  // first step is as short as any other (dagre centres it on the taller card).
  const start = g.nodes.find((n) => n.type === 'start');
  const at = start && laid.get(start.id);
  if (start && at) {
    const height = specOf('start').height;
    const beside = g.nodes.filter((n) => n.type === 'contacts' && laid.has(n.id)).map((n) => ({ y: laid.get(n.id)!.y, bottom: laid.get(n.id)!.y + specOf(n.type).height }));
    const row = beside.filter((b) => b.y < at.y + height && b.bottom > at.y);
    if (row.length > 0) laid.set(start.id, { x: at.x, y: Math.max(...row.map((b) => b.bottom)) - height });
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

/**
 * Whether the stored positions read bottom to top (most edges between cards go up): every flow
 * saved before issue 23 was laid out that way.
 */
export function readsBottomToTop(g: Graph): boolean {
  const at = new Map(g.nodes.filter((n) => n.type !== 'invisible').map((n) => [n.id, n.position.y + specOf(n.type).height / 2]));
  let up = 0;
  let down = 0;
  for (const e of g.edges) {
    const from = at.get(e.source);
    const to = at.get(e.target);
    if (from === undefined || to === undefined || from === to) continue;
    if (to < from) up++;
    else down++;
  }
  return up > down;
}

/**
 * Up to this many nodes, a flow stored bottom-to-top is laid out again when it opens (dagre takes
 * a few milliseconds for a template's 15 steps, but hundreds for 300: a big flow is mirrored).
 */
export const RELAYOUT_ON_OPEN_LIMIT = 60;

/**
 * The graph as the canvas opens it. A flow stored bottom-to-top is turned the right way up: laid
 * out again when no card was placed by hand and it is small (RELAYOUT_ON_OPEN_LIMIT), else
 * mirrored top to bottom (a hand-made arrangement keeps its shape). Deterministic, so the same
 * stored graph always opens the same way and nothing is saved until the next edit. A flow stored
 * top-to-bottom opens as stored (the server's templates are, since migration 00027).
 */
export function openingGraph(g: Graph): Graph {
  if (!readsBottomToTop(g)) return g;
  if (!g.nodes.some(placedByHand) && g.nodes.length <= RELAYOUT_ON_OPEN_LIMIT) return layoutGraph(g);
  return { ...g, nodes: g.nodes.map((n) => ({ ...n, position: { x: n.position.x, y: -(n.position.y + specOf(n.type).height) } })) };
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 2;
/** The smallest text on screen a person is expected to read (issue 23: node text at least 12 px). */
export const MIN_SCREEN_TEXT_PX = 12;
/** The lowest zoom at which every text on a card is at least MIN_SCREEN_TEXT_PX on screen. */
export const READABLE_ZOOM = MIN_SCREEN_TEXT_PX / SMALLEST_CARD_TEXT_PX;
/** The opening view never magnifies past 1: a two-card flow opens at its real size, not blown up. */
const OPENING_MAX_ZOOM = Math.max(1, READABLE_ZOOM);
const FIT_PADDING = 0.1;
/** Room around the flow when the view opens on Start (screen pixels). */
export const OPENING_TOP_MARGIN = 24;

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

function cardsOf(g: Graph): (Box & { node: GNode })[] {
  return g.nodes
    .filter((n) => n.type !== 'invisible')
    .map((n) => ({ node: n, x: n.position.x, y: n.position.y, width: specOf(n.type).width, height: specOf(n.type).height }));
}

function boundsOf(boxes: Box[]): Box | null {
  if (boxes.length === 0) return null;
  const minX = Math.min(...boxes.map((b) => b.x));
  const minY = Math.min(...boxes.map((b) => b.y));
  const maxX = Math.max(...boxes.map((b) => b.x + b.width));
  const maxY = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/**
 * The view the canvas opens on, in a box of this size, from the positions and card sizes it
 * already knows (so it is set before the first draw). The whole flow when, fitted, its text is
 * readable (zoom >= READABLE_ZOOM); otherwise Start at the readable zoom near the top, centred
 * across. The rest of the flow is a pan (or "Fit view") away.
 */
export function openingViewport(g: Graph, width: number, height: number): Viewport {
  const cards = cardsOf(g);
  const all = boundsOf(cards);
  if (!all) return { x: 0, y: 0, zoom: 1 };
  const fitted = getViewportForBounds(all, width, height, MIN_ZOOM, OPENING_MAX_ZOOM, FIT_PADDING);
  if (fitted.zoom >= READABLE_ZOOM - 1e-9) return fitted;
  const zoom = READABLE_ZOOM;
  const start = cards.find((c) => c.node.type === 'start') ?? cards.reduce((a, b) => (b.y < a.y ? b : a));
  // Start's row (Start and the Contacts card beside it) shows whole when it fits, across and
  // down, with the step after Start below it; across, the view is centred on the row and that
  // step together when they fit (so the call below Start is not cut at the edge), else on the
  // row, else (a phone) on Start alone, at the top, with the steps after it below.
  const row = cards.filter((c) => c.y < start.y + start.height && c.y + c.height > start.y);
  const rowBox = boundsOf(row)!;
  const nextId = g.edges.find((e) => e.source === start.node.id)?.target;
  const withNext = boundsOf([...row, ...cards.filter((c) => c.node.id === nextId)])!;
  const fitsAcross = (b: Box) => b.width * zoom <= width;
  const across = fitsAcross(withNext) ? withNext : fitsAcross(rowBox) ? rowBox : start;
  const x = width / 2 - (across.x + across.width / 2) * zoom;
  const rowFitsDown = rowBox.height * zoom <= height - 2 * OPENING_TOP_MARGIN;
  const y = across !== start && rowFitsDown ? OPENING_TOP_MARGIN - rowBox.y * zoom : OPENING_TOP_MARGIN - start.y * zoom;
  return { x, y, zoom };
}

export type Corner = 'top-right' | 'bottom-right' | 'top-left' | 'bottom-left';
/** The minimap's size on screen, and React Flow's margin around a panel. */
export const MINIMAP_SIZE = { width: 160, height: 110 };
/** The zoom controls, laid out in a row (zoom in, zoom out, fit, the minimap's toggle). */
export const CONTROLS_SIZE = { width: 112, height: 30 };
const PANEL_MARGIN = 15;

/**
 * The first of `corners` where a panel of `size` covers no card at this view, else the one that
 * covers the least of them.
 */
function freeCorner(g: Graph, view: Viewport, width: number, height: number, size: { width: number; height: number }, corners: Corner[]): Corner {
  const cards = cardsOf(g).map((c) => ({ x: c.x * view.zoom + view.x, y: c.y * view.zoom + view.y, width: c.width * view.zoom, height: c.height * view.zoom }));
  let best: { corner: Corner; covered: number } | null = null;
  for (const corner of corners) {
    const box = {
      x: corner.endsWith('left') ? PANEL_MARGIN : width - PANEL_MARGIN - size.width,
      y: corner.startsWith('top') ? PANEL_MARGIN : height - PANEL_MARGIN - size.height,
      ...size,
    };
    let covered = 0;
    for (const c of cards) {
      const w = Math.min(box.x + box.width, c.x + c.width) - Math.max(box.x, c.x);
      const h = Math.min(box.y + box.height, c.y + c.height) - Math.max(box.y, c.y);
      if (w > 0 && h > 0) covered += w * h;
    }
    if (covered === 0) return corner;
    if (!best || covered < best.covered) best = { corner, covered };
  }
  return best!.corner;
}

/** The corner the minimap goes in at the opening view: one where it covers no card. */
export function minimapCorner(g: Graph, view: Viewport, width: number, height: number): Corner {
  return freeCorner(g, view, width, height, MINIMAP_SIZE, ['top-right', 'bottom-right', 'top-left', 'bottom-left']);
}

/** The corner the zoom controls go in: another one, where they cover no card either. */
export function controlsCorner(g: Graph, view: Viewport, width: number, height: number, minimap: Corner): Corner {
  const corners: Corner[] = ['bottom-left', 'bottom-right', 'top-left', 'top-right'];
  return freeCorner(g, view, width, height, CONTROLS_SIZE, corners.filter((c) => c !== minimap));
}

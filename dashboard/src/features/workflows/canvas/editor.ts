// The editor's graph operations: each is a pure function Graph → Graph that the canvas runs
// through the same normalisation rules the server applies (so what is drawn is what is saved),
// then lays out again when the structure changed — every node except those placed by hand
// (layout.ts); `tidy` lays out all of them.

import { deleteNode, EDGE_TYPE, normalize, type Data, type GEdge, type GNode, type Graph, type Kind } from '../graph';
import { layoutGraph, PLACED_BY_HAND } from './layout';
import { specOf } from './nodes/registry';

let counter = 0;
/** A node or edge id unique on this canvas (ids are strings the server keeps as sent). */
export function newId(prefix: string): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}${counter.toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

export function edge(source: string, target: string): GEdge {
  return { id: newId('e'), source, target, sourceHandle: null, targetHandle: null, type: EDGE_TYPE, edge_meta: {} };
}

export function node(kind: Kind, data?: Data): GNode {
  return { id: newId(kind), type: kind, position: { x: 0, y: 0 }, data: data ?? specOf(kind).defaults(), flow_meta: {} };
}

/** Normalise and lay out: what every structural edit ends with. */
export function settle(g: Graph): Graph {
  return layoutGraph(normalize(g).graph);
}

/**
 * A new step of `kind`, answered as the nodes it adds and the id that continues the flow. A
 * Conditional Path comes with two paths (the rules remove one with fewer), each a Customer
 * Response; the flow continues from the first.
 */
function makeStep(kind: Kind): { nodes: GNode[]; edges: GEdge[]; entry: string; exit: string | null } {
  const n = node(kind);
  if (kind !== 'conditional-path') return { nodes: [n], edges: [], entry: n.id, exit: specOf(kind).terminal ? null : n.id };
  const a = node('customer-response', { nodeLabel: 'Path 1', description: '' });
  const b = node('customer-response', { nodeLabel: 'Path 2', description: '' });
  return { nodes: [n, a, b], edges: [edge(n.id, a.id), edge(n.id, b.id)], entry: n.id, exit: a.id };
}

/** A step after `sourceId` (whose source handle is free). */
export function addAfter(g: Graph, sourceId: string, kind: Kind): { graph: Graph; added: string } {
  const step = makeStep(kind);
  return { graph: settle({ nodes: [...g.nodes, ...step.nodes], edges: [...g.edges, ...step.edges, edge(sourceId, step.entry)] }), added: step.entry };
}

/** A step in the middle of edge `edgeId`: source → step → (old target, when the step can continue). */
export function insertOnEdge(g: Graph, edgeId: string, kind: Kind): { graph: Graph; added: string } {
  const old = g.edges.find((e) => e.id === edgeId);
  if (!old) return { graph: g, added: '' };
  const step = makeStep(kind);
  const edges = g.edges.filter((e) => e.id !== edgeId);
  edges.push({ ...old, target: step.entry }, ...step.edges);
  if (step.exit) edges.push(edge(step.exit, old.target));
  return { graph: settle({ nodes: [...g.nodes, ...step.nodes], edges }), added: step.entry };
}

/** A new path of a Conditional Path: a Customer Response branch. */
export function addPath(g: Graph, cpId: string): { graph: Graph; added: string } {
  const branch = node('customer-response', { nodeLabel: `Path ${g.edges.filter((e) => e.source === cpId).length + 1}`, description: '' });
  return { graph: settle({ nodes: [...g.nodes, branch], edges: [...g.edges, edge(cpId, branch.id)] }), added: branch.id };
}

export function removeNode(g: Graph, id: string): Graph {
  return settle(deleteNode(g, id));
}

/** The DELETE button of a target handle: the edges entering the node go. */
export function deleteIncoming(g: Graph, id: string): Graph {
  return settle({ nodes: g.nodes, edges: g.edges.filter((e) => e.target !== id) });
}

export function connect(g: Graph, source: string, target: string): Graph {
  if (source === target) return g;
  // A placeholder that fed the target goes: the new edge is its real source.
  const placeholders = new Set(g.nodes.filter((n) => n.type === 'invisible').map((n) => n.id));
  const edges = g.edges.filter((e) => !(e.target === target && placeholders.has(e.source)));
  return settle({ nodes: g.nodes, edges: [...edges, edge(source, target)] });
}

export function updateData(g: Graph, id: string, data: Data): Graph {
  return { ...g, nodes: g.nodes.map((n) => (n.id === id ? { ...n, data } : n)) };
}

/** Cards dragged to new positions: each is marked as placed by hand, so no layout moves it again. */
export function moveNodes(g: Graph, positions: Map<string, { x: number; y: number }>): Graph {
  return {
    ...g,
    nodes: g.nodes.map((n) => (positions.has(n.id) ? { ...n, position: positions.get(n.id)!, flow_meta: { ...n.flow_meta, [PLACED_BY_HAND]: true } } : n)),
  };
}

/** "Tidy up": every node laid out again, the ones placed by hand too (undo puts them back). */
export function tidy(g: Graph): Graph {
  return layoutGraph(g, { everything: true });
}

/** Whether the source handle of each node is used (spec §4: then it is not connectable). */
export function usedSources(g: Graph): Set<string> {
  return new Set(g.edges.map((e) => e.source));
}

/** Nodes with a real incoming edge (a placeholder's does not count). */
export function withIncoming(g: Graph): Set<string> {
  const placeholders = new Set(g.nodes.filter((n) => n.type === 'invisible').map((n) => n.id));
  return new Set(g.edges.filter((e) => !placeholders.has(e.source)).map((e) => e.target));
}

/** The graph a new, empty workflow starts with: Start, and Contacts for an outbound one. */
export function seedGraph(type: 'inbound' | 'outbound'): Graph {
  // Ids unique beyond this workflow: a Contacts node's CSV is addressed by its node id alone.
  const nodes: GNode[] = [{ id: newId('start'), type: 'start', position: { x: 0, y: 0 }, data: {}, flow_meta: {} }];
  if (type === 'outbound') nodes.push({ id: newId('contacts'), type: 'contacts', position: { x: 0, y: 0 }, data: { nodeLabel: 'Contacts' }, flow_meta: {} });
  return settle({ nodes, edges: [] });
}

/** How far a duplicate sits from its original, in canvas pixels. */
export const DUPLICATE_OFFSET = { x: 48, y: 48 };

/** Kinds a workflow has one of (or that only the canvas makes): never duplicated. */
const NOT_DUPLICATED = new Set<string>(['start', 'contacts', 'invisible']);

/**
 * Copies of the nodes `ids` with new ids, offset from the originals and placed by hand (no layout
 * moves them); an edge between two copied nodes is copied too. A Conditional Path takes its
 * Customer Response branches with it (alone it would have no path and be removed). Start and
 * Contacts are never copied: they come back as `skipped`.
 */
export function duplicate(g: Graph, ids: readonly string[]): { graph: Graph; added: string[]; skipped: GNode[] } {
  const wanted = new Set(ids);
  for (const e of g.edges) {
    const src = g.nodes.find((n) => n.id === e.source);
    const dst = g.nodes.find((n) => n.id === e.target);
    if (src?.type === 'conditional-path' && wanted.has(src.id) && dst?.type === 'customer-response') wanted.add(dst.id);
  }
  const skipped = g.nodes.filter((n) => wanted.has(n.id) && (n.type === 'start' || n.type === 'contacts'));
  const copyOf = new Map<string, GNode>();
  for (const n of g.nodes) {
    if (!wanted.has(n.id) || NOT_DUPLICATED.has(n.type)) continue;
    copyOf.set(n.id, {
      ...n,
      id: newId(n.type),
      position: { x: n.position.x + DUPLICATE_OFFSET.x, y: n.position.y + DUPLICATE_OFFSET.y },
      data: { ...n.data },
      flow_meta: { ...n.flow_meta, [PLACED_BY_HAND]: true },
    });
  }
  if (copyOf.size === 0) return { graph: g, added: [], skipped };
  const edges = g.edges.filter((e) => copyOf.has(e.source) && copyOf.has(e.target)).map((e) => ({ ...edge(copyOf.get(e.source)!.id, copyOf.get(e.target)!.id), sourceHandle: e.sourceHandle, targetHandle: e.targetHandle }));
  const added = [...copyOf.values()].map((n) => n.id);
  return { graph: settle({ nodes: [...g.nodes, ...copyOf.values()], edges: [...g.edges, ...edges] }), added, skipped };
}

/** The context menu's "Delete connection": the edge goes (its target gets a placeholder when it has no other source). */
export function deleteEdge(g: Graph, edgeId: string): Graph {
  if (!g.edges.some((e) => e.id === edgeId)) return g;
  return settle({ nodes: g.nodes, edges: g.edges.filter((e) => e.id !== edgeId) });
}

/** Arrow keys: the nodes `ids` moved by (dx, dy) and marked as placed by hand. */
export function nudge(g: Graph, ids: readonly string[], dx: number, dy: number): Graph {
  const positions = new Map<string, { x: number; y: number }>();
  for (const n of g.nodes) if (ids.includes(n.id)) positions.set(n.id, { x: n.position.x + dx, y: n.position.y + dy });
  return positions.size === 0 ? g : moveNodes(g, positions);
}

import { cloneGraph, EDGE_TYPE, kindsOf, outgoing, type GEdge, type GNode, type Graph } from './model';

export type ChangeRule =
  | 'conditional-path-removed'
  | 'edge-reconnected'
  | 'edge-dropped'
  | 'invisible-removed'
  | 'placeholder-added';

export interface Change {
  rule: ChangeRule;
  nodeId?: string;
  edgeId?: string;
}

/** How far above a node its placeholder sits (flows are laid out top to bottom). */
export const PLACEHOLDER_OFFSET = 250;

function change(rule: ChangeRule, ids: { nodeId?: string; edgeId?: string }): Change {
  const c: Change = { rule };
  if (ids.nodeId) c.nodeId = ids.nodeId;
  if (ids.edgeId) c.edgeId = ids.edgeId;
  return c;
}

function removeNode(g: Graph, id: string, changes?: Change[]): Graph {
  const edges: GEdge[] = [];
  for (const e of g.edges) {
    if (e.source === id || e.target === id) {
      changes?.push(change('edge-dropped', { edgeId: e.id }));
      continue;
    }
    edges.push(e);
  }
  return { nodes: g.nodes.filter((n) => n.id !== id), edges };
}

/** The normalisation rules, in the server's order; the input is not modified. */
export function normalize(input: Graph): { graph: Graph; changes: Change[] } {
  let g = cloneGraph(input);
  const changes: Change[] = [];

  // 1. Conditional paths with one branch or none.
  for (;;) {
    const cp = g.nodes.find((n) => n.type === 'conditional-path' && outgoing(g, n.id).length <= 1);
    if (!cp) break;
    const out = outgoing(g, cp.id);
    changes.push(change('conditional-path-removed', { nodeId: cp.id }));
    const kept: GEdge[] = [];
    for (const e of g.edges) {
      if (e.source === cp.id) continue;
      if (e.target === cp.id && out.length === 1 && e.source !== out[0]!.target) {
        e.target = out[0]!.target;
        e.targetHandle = out[0]!.targetHandle;
        changes.push(change('edge-reconnected', { edgeId: e.id, nodeId: e.target }));
        kept.push(e);
      } else if (e.target === cp.id) {
        changes.push(change('edge-dropped', { edgeId: e.id }));
      } else {
        kept.push(e);
      }
    }
    g = { nodes: g.nodes.filter((n) => n.id !== cp.id), edges: kept };
  }

  // 2. One outgoing edge per source handle (a conditional path's branches share its handle).
  const kinds = kindsOf(g);
  const used = new Set<string>();
  g.edges = g.edges.filter((e) => {
    const key = JSON.stringify([e.source, e.sourceHandle ?? '']);
    if (kinds.get(e.source) !== 'conditional-path' && used.has(key)) {
      changes.push(change('edge-dropped', { edgeId: e.id }));
      return false;
    }
    used.add(key);
    return true;
  });

  // 3. Orphaned invisible nodes.
  for (;;) {
    const orphan = g.nodes.find((n) => n.type === 'invisible' && outgoing(g, n.id).length === 0);
    if (!orphan) break;
    changes.push(change('invisible-removed', { nodeId: orphan.id }));
    g = removeNode(g, orphan.id, changes);
  }

  // 4. Placeholders for nodes without an incoming edge.
  const hasIn = new Set(g.edges.map((e) => e.target));
  const ids = new Set(g.nodes.map((n) => n.id));
  const nodes: GNode[] = [];
  const edges: GEdge[] = [];
  for (const n of g.nodes) {
    if (hasIn.has(n.id) || n.type === 'start' || n.type === 'contacts' || n.type === 'invisible') continue;
    let pid = 'invisible-' + n.id;
    while (ids.has(pid)) pid += '-1';
    ids.add(pid);
    nodes.push({
      id: pid,
      type: 'invisible',
      position: { x: n.position.x, y: n.position.y - PLACEHOLDER_OFFSET },
      data: {},
      flow_meta: {},
    });
    edges.push({
      id: 'edge-' + pid,
      source: pid,
      target: n.id,
      sourceHandle: null,
      targetHandle: null,
      type: EDGE_TYPE,
      edge_meta: {},
    });
    changes.push(change('placeholder-added', { nodeId: n.id }));
  }
  g.nodes.push(...nodes);
  g.edges.push(...edges);
  return { graph: g, changes };
}

/** Removes a node with its edges; a conditional path takes its customer-response branches. */
export function deleteNode(input: Graph, id: string): Graph {
  let g = cloneGraph(input);
  const kinds = kindsOf(g);
  const branches =
    kinds.get(id) === 'conditional-path'
      ? outgoing(g, id)
          .filter((e) => kinds.get(e.target) === 'customer-response')
          .map((e) => e.target)
      : [];
  g = removeNode(g, id);
  for (const b of branches) g = removeNode(g, b);
  return g;
}

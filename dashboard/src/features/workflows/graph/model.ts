// The call-flow graph as the editor holds it, and the same rules as the server's
// `server/workflow` package (its package doc is the reference; `testdata/graphs/` holds the
// vectors both implementations pass). Pure: no React, no I/O.

export type Kind =
  | 'start'
  | 'agent'
  | 'customer-response'
  | 'end-call'
  | 'data-access'
  | 'forward-call'
  | 'hubspot-lifecycle-stage'
  | 'webhook'
  | 'invisible'
  | 'conditional-path'
  | 'contacts';

export const KINDS: readonly Kind[] = [
  'start',
  'agent',
  'customer-response',
  'end-call',
  'data-access',
  'forward-call',
  'hubspot-lifecycle-stage',
  'webhook',
  'invisible',
  'conditional-path',
  'contacts',
];

export type WorkflowType = 'inbound' | 'outbound';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Data = Record<string, Json>;

export interface GNode {
  id: string;
  type: string;
  position: { x: number; y: number };
  data: Data;
  flow_meta: Record<string, Json>;
}

export interface GEdge {
  id: string;
  source: string;
  target: string;
  sourceHandle: string | null;
  targetHandle: string | null;
  type: string;
  edge_meta: Record<string, Json>;
}

export interface Graph {
  nodes: GNode[];
  edges: GEdge[];
}

export const EDGE_TYPE = 'add-step';

const KIND_ALIASES: Record<string, Kind> = {
  hubspot: 'hubspot-lifecycle-stage',
  lifecyclestage: 'hubspot-lifecycle-stage',
  hubspotlifecycle: 'hubspot-lifecycle-stage',
  forward: 'forward-call',
  conditional: 'conditional-path',
  customer: 'customer-response',
  dataaccesstrigger: 'data-access',
  end: 'end-call',
};

function fold(s: string): string {
  return s.toLowerCase().replace(/[-_ ]/g, '');
}

/** Reads a node kind in any of its spellings; undefined for an unknown kind. */
export function parseKind(s: string): Kind | undefined {
  const f = fold(s);
  return KINDS.find((k) => fold(k) === f) ?? KIND_ALIASES[f];
}

export const FIELDS = {
  nodeLabel: 'nodeLabel',
  instruction: 'instruction',
  say: 'say',
  description: 'description',
  destination: 'destinationPhoneNumber',
  stage: 'lifeCycleStage',
  source: 'contactsSource',
  webhookUrl: 'webhookUrl',
  method: 'webhookMethod',
  webhookData: 'webhookData',
} as const;

const KNOWN_FIELDS = Object.values(FIELDS);

function snakeCase(s: string): string {
  return s.replace(/[A-Z]/g, (c) => '_' + c.toLowerCase());
}

/** Rewrites snake_case known fields to camelCase (camelCase wins when both are sent). */
export function canonicalData(d: Record<string, unknown> | null | undefined): Data {
  const out: Data = { ...((d ?? {}) as Data) };
  for (const f of KNOWN_FIELDS) {
    const snake = snakeCase(f);
    if (snake === f || !(snake in out)) continue;
    if (!(f in out)) out[f] = out[snake]!;
    delete out[snake];
  }
  return out;
}

export function str(d: Data, key: string): string {
  const v = d[key];
  return typeof v === 'string' ? v : '';
}

type Loose = Record<string, unknown>;

/** Reads a graph as a client may send it (any accepted spelling) into the one written form. */
export function parseGraph(input: { nodes?: unknown[] | null; edges?: unknown[] | null }): Graph {
  const nodes = (input.nodes ?? []).map((raw): GNode => {
    const n = raw as Loose;
    const t = typeof n['type'] === 'string' ? (n['type'] as string) : '';
    const pos = (n['position'] ?? {}) as Loose;
    return {
      id: typeof n['id'] === 'string' ? (n['id'] as string) : '',
      type: parseKind(t) ?? t,
      position: { x: Number(pos['x'] ?? 0), y: Number(pos['y'] ?? 0) },
      data: canonicalData(n['data'] as Loose | undefined),
      flow_meta: ((n['flow_meta'] ?? n['flowMeta'] ?? {}) as Record<string, Json>),
    };
  });
  const edges = (input.edges ?? []).map((raw): GEdge => {
    const e = raw as Loose;
    const s = (k: string) => (typeof e[k] === 'string' ? (e[k] as string) : '');
    const h = (k: string) => (typeof e[k] === 'string' ? (e[k] as string) : null);
    return {
      id: s('id'),
      source: s('source'),
      target: s('target'),
      sourceHandle: h('sourceHandle'),
      targetHandle: h('targetHandle'),
      type: s('type') || EDGE_TYPE,
      edge_meta: ((e['edge_meta'] ?? e['edgeMeta'] ?? {}) as Record<string, Json>),
    };
  });
  return { nodes, edges };
}

export function cloneGraph(g: Graph): Graph {
  return JSON.parse(JSON.stringify(g)) as Graph;
}

export function outgoing(g: Graph, id: string): GEdge[] {
  return g.edges.filter((e) => e.source === id);
}

export function kindsOf(g: Graph): Map<string, string> {
  return new Map(g.nodes.map((n) => [n.id, n.type]));
}

import { FIELDS, kindsOf, outgoing, parseKind, str, type Graph, type GNode, type WorkflowType } from './model';
import { normalize, type Change } from './normalize';
import { validE164 } from './phone';

export interface Violation {
  /** Where, as the server names it: `nodes[<id>].<field>`, `edges[<id>].<field>` or `nodes`. */
  field: string;
  rule: string;
  message: string;
  /** The step the problem is on (absent for an edge's or the whole graph's problem). */
  nodeId?: string;
  /** The connection the problem is on. */
  edgeId?: string;
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const STAGES = [
  'subscriber',
  'lead',
  'marketing lead',
  'sales lead',
  'opportunity',
  'customer',
  'evangelist',
  'other',
] as const;
export const SOURCES = ['csv', 'hubspot', 'zapier'] as const;

class Violations {
  list: (Violation & { order: number })[] = [];
  nodeOrder = new Map<string, number>();
  edgeOrder = new Map<string, number>();
  seen = new Set<string>();

  constructor(g: Graph) {
    g.nodes.forEach((n, i) => {
      if (!this.nodeOrder.has(n.id)) this.nodeOrder.set(n.id, i);
    });
    g.edges.forEach((e, i) => {
      if (!this.edgeOrder.has(e.id)) this.edgeOrder.set(e.id, g.nodes.length + i);
    });
  }

  node(id: string, field: string, rule: string, message: string) {
    if (this.seen.has('n:' + id)) return;
    this.seen.add('n:' + id);
    const name = `nodes[${id}]` + (field ? '.' + field : '');
    this.list.push({ field: name, rule, message, nodeId: id, order: this.nodeOrder.get(id) ?? 0 });
  }

  edge(id: string, field: string, rule: string, message: string) {
    if (this.seen.has('e:' + id)) return;
    this.seen.add('e:' + id);
    this.list.push({ field: `edges[${id}].${field}`, rule, message, edgeId: id, order: this.edgeOrder.get(id) ?? 0 });
  }

  graph(rule: string, message: string) {
    if (this.seen.has('graph')) return;
    this.seen.add('graph');
    this.list.push({ field: 'nodes', rule, message, order: -1 });
  }

  sorted(): Violation[] {
    return [...this.list]
      .map((v, i) => ({ v, i }))
      .sort((a, b) => a.v.order - b.v.order || a.i - b.i)
      .map(({ v }) => {
        const { order: _order, ...violation } = v;
        return violation;
      });
  }
}

function structure(v: Violations, g: Graph, typ: WorkflowType) {
  const ids = new Set<string>();
  for (const n of g.nodes) {
    if (n.id === '') v.graph('node-id-missing', 'Every node needs an id.');
    else if (ids.has(n.id)) v.node(n.id, 'id', 'node-id-duplicate', 'Another node has the same id.');
    ids.add(n.id);
    if (!parseKind(n.type)) v.node(n.id, 'type', 'node-type-unknown', `"${n.type}" is not a node kind.`);
  }
  const edgeIds = new Set<string>();
  const hasIn = new Set<string>();
  for (const e of g.edges) {
    if (e.id === '' || edgeIds.has(e.id)) v.edge(e.id, 'id', 'edge-id-duplicate', 'Every edge needs an id of its own.');
    else if (!ids.has(e.source)) v.edge(e.id, 'source', 'edge-source-unknown', `No node has the id "${e.source}".`);
    else if (!ids.has(e.target)) v.edge(e.id, 'target', 'edge-target-unknown', `No node has the id "${e.target}".`);
    else if (e.source === e.target) v.edge(e.id, 'target', 'edge-self-loop', 'An edge cannot join a node to itself.');
    edgeIds.add(e.id);
    hasIn.add(e.target);
  }
  if (g.nodes.length === 0) return;
  let starts = 0;
  let contacts = 0;
  for (const n of g.nodes) {
    if (n.type === 'start') {
      starts++;
      if (starts > 1) v.node(n.id, 'type', 'start-duplicate', 'A workflow has exactly one Start node.');
      else if (hasIn.has(n.id)) v.node(n.id, '', 'start-has-incoming', 'Nothing can lead into the Start node.');
    } else if (n.type === 'contacts') {
      contacts++;
      if (typ === 'inbound')
        v.node(n.id, 'type', 'contacts-inbound', 'An inbound workflow has no Contacts node: its calls come in.');
      else if (contacts > 1) v.node(n.id, 'type', 'contacts-duplicate', 'A workflow has at most one Contacts node.');
      else if (hasIn.has(n.id)) v.node(n.id, '', 'contacts-has-incoming', 'Nothing can lead into the Contacts node.');
    }
  }
  if (starts === 0) v.graph('start-missing', 'A workflow needs a Start node.');
}

function isObject(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function validHttpUrl(u: string): boolean {
  // Go's url.Parse is lenient; what matters is an http(s) scheme and a host.
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)/.exec(u);
  if (!m) return false;
  const scheme = m[1]!.toLowerCase();
  const host = m[2]!.replace(/^[^@]*@/, '');
  return (scheme === 'http' || scheme === 'https') && host !== '' && !/\s/.test(u);
}

/** The first malformed field of a node: a value that is set but wrong. */
export function badData(n: GNode): { field: string; message: string } | undefined {
  const d = n.data;
  for (const f of [
    FIELDS.nodeLabel,
    FIELDS.instruction,
    FIELDS.say,
    FIELDS.description,
    FIELDS.destination,
    FIELDS.stage,
    FIELDS.source,
    FIELDS.webhookUrl,
    FIELDS.method,
  ]) {
    const x = d[f];
    if (x !== undefined && x !== null && typeof x !== 'string') return { field: f, message: 'This field is text.' };
  }
  const p = str(d, FIELDS.destination);
  if (p && !validE164(p))
    return {
      field: FIELDS.destination,
      message: 'Add a valid number to run your workflow: an E.164 number such as +14155550123.',
    };
  const s = str(d, FIELDS.stage);
  if (s && !(STAGES as readonly string[]).includes(s))
    return { field: FIELDS.stage, message: 'Choose one of: ' + STAGES.join(', ') + '.' };
  const src = str(d, FIELDS.source);
  if (src && !(SOURCES as readonly string[]).includes(src))
    return { field: FIELDS.source, message: 'The contact source is csv, hubspot or zapier.' };
  const u = str(d, FIELDS.webhookUrl);
  if (u && !validHttpUrl(u))
    return { field: FIELDS.webhookUrl, message: 'A webhook URL is an absolute http or https URL.' };
  const m = str(d, FIELDS.method);
  if (m && !(METHODS as readonly string[]).includes(m))
    return { field: FIELDS.method, message: 'The method is one of GET, POST, PUT, PATCH, DELETE.' };
  const wd = d[FIELDS.webhookData];
  if (wd !== undefined && wd !== null) {
    if (!isObject(wd))
      return { field: FIELDS.webhookData, message: 'webhookData is an object with params, headers and body.' };
    for (const k of ['params', 'headers']) {
      const x = wd[k];
      if (x === undefined || x === null) continue;
      if (!isObject(x)) return { field: `${FIELDS.webhookData}.${k}`, message: 'This is an object of names to text values.' };
      if (Object.values(x).some((val) => typeof val !== 'string'))
        return { field: `${FIELDS.webhookData}.${k}`, message: 'Each value is text.' };
    }
    const body = wd['body'];
    if (body !== undefined && body !== null && m === 'GET' && (!isObject(body) || Object.keys(body).length > 0))
      return { field: `${FIELDS.webhookData}.body`, message: 'A GET request has no body.' };
  }
  return undefined;
}

function data(v: Violations, g: Graph, complete: boolean) {
  const kinds = kindsOf(g);
  for (const n of g.nodes) {
    const d = n.data;
    const bad = badData(n);
    if (bad) {
      v.node(n.id, bad.field, 'data-invalid', bad.message);
      continue;
    }
    if (n.type === 'conditional-path' && outgoing(g, n.id).some((e) => kinds.get(e.target) !== 'customer-response'))
      v.node(n.id, '', 'branch-not-customer-response', 'Each path of a Conditional Path leads to a Customer Response.');
    if (!complete) continue;
    switch (n.type) {
      case 'agent':
        if (!str(d, FIELDS.instruction).trim())
          v.node(n.id, FIELDS.instruction, 'instruction-missing', 'No Agent Response: say what the agent says or does.');
        break;
      case 'customer-response':
        if (!str(d, FIELDS.description).trim())
          v.node(
            n.id,
            FIELDS.description,
            'description-missing',
            'No Customer Response: describe what the customer says on this path.',
          );
        break;
      case 'forward-call':
        if (!str(d, FIELDS.destination))
          v.node(
            n.id,
            FIELDS.destination,
            'destination-missing',
            'No destination numbers found. Add a valid number to run your workflow.',
          );
        break;
      case 'webhook':
        if (!str(d, FIELDS.webhookUrl))
          v.node(n.id, FIELDS.webhookUrl, 'webhook-url-missing', 'A webhook needs an http or https URL.');
        else if (!str(d, FIELDS.method)) v.node(n.id, FIELDS.method, 'webhook-method-missing', 'A webhook needs a method.');
        break;
      case 'hubspot-lifecycle-stage':
        if (!str(d, FIELDS.stage)) v.node(n.id, FIELDS.stage, 'stage-missing', 'Choose the lifecycle stage to set.');
        break;
      case 'contacts':
        if (!str(d, FIELDS.source))
          v.node(
            n.id,
            FIELDS.source,
            'source-missing',
            'No contact source added. Please add a contact source to run your workflow.',
          );
        break;
    }
  }
}

/** Strongly connected components (Tarjan), visiting nodes in input order. */
function components(g: Graph, adj: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const on = new Set<string>();
  const stack: string[] = [];
  const out: string[][] = [];
  let next = 0;
  const visit = (u: string) => {
    index.set(u, next);
    low.set(u, next);
    next++;
    stack.push(u);
    on.add(u);
    for (const w of adj.get(u) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(u, Math.min(low.get(u)!, low.get(w)!));
      } else if (on.has(w)) {
        low.set(u, Math.min(low.get(u)!, index.get(w)!));
      }
    }
    if (low.get(u) === index.get(u)) {
      const scc: string[] = [];
      for (;;) {
        const w = stack.pop()!;
        on.delete(w);
        scc.push(w);
        if (w === u) break;
      }
      out.push(scc);
    }
  };
  for (const n of g.nodes) if (!index.has(n.id)) visit(n.id);
  return out;
}

function cycles(v: Violations, g: Graph) {
  const kinds = kindsOf(g);
  const adj = new Map<string, string[]>();
  for (const e of g.edges) {
    if (kinds.get(e.source) === 'customer-response' || kinds.get(e.target) === 'customer-response') continue;
    adj.set(e.source, [...(adj.get(e.source) ?? []), e.target]);
  }
  for (const scc of components(g, adj)) {
    if (scc.length < 2) continue;
    let first = scc[0]!;
    for (const id of scc) if ((v.nodeOrder.get(id) ?? 0) < (v.nodeOrder.get(first) ?? 0)) first = id;
    v.node(
      first,
      '',
      'cycle',
      'This loop never listens to the customer: a flow may only go back through a Customer Response.',
    );
  }
}

function walk(from: string, adj: Map<string, string[]>): Set<string> {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length) {
    const u = queue.shift()!;
    for (const w of adj.get(u) ?? []) {
      if (!seen.has(w)) {
        seen.add(w);
        queue.push(w);
      }
    }
  }
  return seen;
}

function paths(v: Violations, g: Graph) {
  const start = g.nodes.find((n) => n.type === 'start')?.id;
  if (!start) {
    v.graph('start-missing', 'A workflow needs a Start node.');
    return;
  }
  const out = new Map<string, string[]>();
  const inc = new Map<string, string[]>();
  for (const e of g.edges) {
    out.set(e.source, [...(out.get(e.source) ?? []), e.target]);
    inc.set(e.target, [...(inc.get(e.target) ?? []), e.source]);
  }
  const reach = walk(start, out);
  const ends = new Set<string>();
  for (const n of g.nodes)
    if (n.type === 'end-call' || n.type === 'forward-call') for (const id of walk(n.id, inc)) ends.add(id);
  for (const n of g.nodes) {
    const terminal = n.type === 'end-call' || n.type === 'forward-call';
    const outs = out.get(n.id)?.length ?? 0;
    if (n.type === 'contacts' || n.type === 'invisible') continue;
    if (terminal && outs > 0)
      v.node(n.id, '', 'step-after-end', 'Nothing can follow an End Call or a Forward Call: the call is over.');
    else if (!reach.has(n.id))
      v.node(n.id, '', 'unreachable', 'No path from Start leads here: connect this step to the flow.');
    else if (outs === 0 && !terminal)
      v.node(n.id, '', 'dead-end', 'This path does not end: connect it to an End Call or a Forward Call.');
    else if (!ends.has(n.id))
      v.node(n.id, '', 'never-ends', 'No path from here reaches an End Call or a Forward Call.');
  }
}

/** The hard rules a save must obey (the server refuses a graph that breaks one). */
export function check(g: Graph, typ: WorkflowType): Violation[] {
  const v = new Violations(g);
  structure(v, g, typ);
  if (v.list.length) return v.sorted();
  data(v, g, false);
  cycles(v, g);
  return v.sorted();
}

/** What stops the graph from running: the hard rules, then completeness. */
export function validate(g: Graph, typ: WorkflowType): Violation[] {
  const v = new Violations(g);
  structure(v, g, typ);
  if (v.list.length) return v.sorted();
  data(v, g, true);
  cycles(v, g);
  paths(v, g);
  return v.sorted();
}

/**
 * The problems of each step, by node id, in the order `validate` lists them: what a card shows
 * in words. An edge's or the whole graph's problem belongs to no step and is left out.
 */
export function problemsByNode(violations: readonly Violation[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const v of violations) {
    if (v.nodeId === undefined) continue;
    const list = out.get(v.nodeId);
    if (list) list.push(v.message);
    else out.set(v.nodeId, [v.message]);
  }
  return out;
}

/** What a save does: structure, normalise, hard rules on the result. */
export function prepare(
  g: Graph,
  typ: WorkflowType,
): { graph: Graph; changes: Change[]; errors: [] } | { errors: Violation[] } {
  const v = new Violations(g);
  structure(v, g, typ);
  if (v.list.length) return { errors: v.sorted() };
  const { graph, changes } = normalize(g);
  const errs = check(graph, typ);
  if (errs.length) return { errors: errs };
  return { graph, changes, errors: [] };
}

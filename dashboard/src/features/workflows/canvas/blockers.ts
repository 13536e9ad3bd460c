import { str, type Graph, type Violation } from '../graph';
import { specOf } from './nodes/registry';

/** One line of the blockers list: whose problem it is, in words, and the step to focus. */
export interface Blocker {
  key: string;
  /** The step's label (its title, else its kind's name), "Workflow", or the connection's ends. */
  label: string;
  message: string;
  /** The step a click focuses (absent for the whole workflow's problems: a click shows it all). */
  nodeId?: string;
}

/** A step's name as its card shows it: its title, else its kind's name. */
function stepName(g: Graph, id: string): string | undefined {
  const n = g.nodes.find((x) => x.id === id);
  if (!n) return undefined;
  return str(n.data, 'nodeLabel').trim() || specOf(n.type).label;
}

/**
 * What stops the workflow from running, named as a person reads the canvas: by step label, never
 * by id. A connection's problem names its ends and focuses where it starts.
 */
export function describeBlockers(violations: readonly Violation[], g: Graph): Blocker[] {
  return violations.map((v, i): Blocker => {
    const key = `${i}:${v.field}:${v.rule}`;
    if (v.nodeId !== undefined) return { key, label: stepName(g, v.nodeId) ?? 'A step', message: v.message, nodeId: v.nodeId };
    if (v.edgeId !== undefined) {
      const e = g.edges.find((x) => x.id === v.edgeId);
      const from = e && stepName(g, e.source);
      const to = e && stepName(g, e.target);
      const label = from && to ? `Connection from ${from} to ${to}` : from ? `Connection from ${from}` : 'A connection';
      return e && from ? { key, label, message: v.message, nodeId: e.source } : { key, label, message: v.message };
    }
    return { key, label: 'Workflow', message: v.message };
  });
}

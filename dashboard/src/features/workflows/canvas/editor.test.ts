import { validate } from '../graph';
import type { Graph } from '../graph';
import { addAfter, addPath, deleteIncoming, insertOnEdge, removeNode, seedGraph, usedSources } from './editor';

const startOf = (g: Graph) => g.nodes.find((n) => n.type === 'start')!.id;

describe('editor operations', () => {
  test('a conditional path comes with two paths and survives normalisation', () => {
    const g0 = seedGraph('inbound');
    const { graph } = addAfter(g0, startOf(g0), 'conditional-path');
    expect(graph.nodes.filter((n) => n.type === 'conditional-path')).toHaveLength(1);
    expect(graph.nodes.filter((n) => n.type === 'customer-response')).toHaveLength(2);
    const cp = graph.nodes.find((n) => n.type === 'conditional-path')!;
    const three = addPath(graph, cp.id).graph;
    expect(three.edges.filter((e) => e.source === cp.id)).toHaveLength(3);
  });

  test('inserting on an edge keeps the flow connected; deleting a path removes its branches', () => {
    const seed = seedGraph('inbound');
    let g = addAfter(seed, startOf(seed), 'end-call').graph;
    const e = g.edges.find((x) => x.source === startOf(seed))!;
    g = insertOnEdge(g, e.id, 'conditional-path').graph;
    const cp = g.nodes.find((n) => n.type === 'conditional-path')!;
    expect(usedSources(g).has(startOf(seed))).toBe(true);
    g = removeNode(g, cp.id);
    expect(g.nodes.some((n) => n.type === 'customer-response')).toBe(false);
    // the End Call lost its source: it gets an invisible placeholder
    expect(g.nodes.some((n) => n.type === 'invisible')).toBe(true);
  });

  test('DELETE on a target handle drops the incoming edge and the node gets a placeholder', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, startOf(seed), 'agent');
    const g = deleteIncoming(graph, added);
    expect(g.edges.some((e) => e.source === startOf(seed))).toBe(false);
    expect(g.edges.find((e) => e.target === added)?.source).toMatch(/^invisible-/);
    expect(validate(g, 'inbound').some((v) => v.field.startsWith(`nodes[${added}]`))).toBe(true);
  });

  test('layout is bottom-to-top: a step sits above its source', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, startOf(seed), 'agent');
    const start = graph.nodes.find((n) => n.type === 'start')!;
    const agent = graph.nodes.find((n) => n.id === added)!;
    expect(agent.position.y).toBeLessThan(start.position.y);
  });
});

import { validate } from '../graph';
import { addAfter, addPath, deleteIncoming, insertOnEdge, removeNode, seedGraph, usedSources } from './editor';

describe('editor operations', () => {
  test('a conditional path comes with two paths and survives normalisation', () => {
    const g0 = seedGraph('inbound');
    const { graph } = addAfter(g0, 'start', 'conditional-path');
    expect(graph.nodes.filter((n) => n.type === 'conditional-path')).toHaveLength(1);
    expect(graph.nodes.filter((n) => n.type === 'customer-response')).toHaveLength(2);
    const cp = graph.nodes.find((n) => n.type === 'conditional-path')!;
    const three = addPath(graph, cp.id).graph;
    expect(three.edges.filter((e) => e.source === cp.id)).toHaveLength(3);
  });

  test('inserting on an edge keeps the flow connected; deleting a path removes its branches', () => {
    let g = addAfter(seedGraph('inbound'), 'start', 'end-call').graph;
    const e = g.edges.find((x) => x.source === 'start')!;
    g = insertOnEdge(g, e.id, 'conditional-path').graph;
    const cp = g.nodes.find((n) => n.type === 'conditional-path')!;
    expect(usedSources(g).has('start')).toBe(true);
    g = removeNode(g, cp.id);
    expect(g.nodes.some((n) => n.type === 'customer-response')).toBe(false);
    // the End Call lost its source: it gets an invisible placeholder
    expect(g.nodes.some((n) => n.type === 'invisible')).toBe(true);
  });

  test('DELETE on a target handle drops the incoming edge and the node gets a placeholder', () => {
    const { graph, added } = addAfter(seedGraph('inbound'), 'start', 'agent');
    const g = deleteIncoming(graph, added);
    expect(g.edges.some((e) => e.source === 'start')).toBe(false);
    expect(g.edges.find((e) => e.target === added)?.source).toMatch(/^invisible-/);
    expect(validate(g, 'inbound').some((v) => v.field.startsWith(`nodes[${added}]`))).toBe(true);
  });

  test('layout is bottom-to-top: a step sits above its source', () => {
    const { graph, added } = addAfter(seedGraph('inbound'), 'start', 'agent');
    const start = graph.nodes.find((n) => n.id === 'start')!;
    const agent = graph.nodes.find((n) => n.id === added)!;
    expect(agent.position.y).toBeLessThan(start.position.y);
  });
});

import { validate } from '../graph';
import type { Graph } from '../graph';
import { addAfter, addPath, deleteIncoming, insertOnEdge, moveNodes, removeNode, seedGraph, tidy, usedSources } from './editor';
import { placedByHand } from './layout';

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

  test('layout is top to bottom: a step sits below its source', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, startOf(seed), 'agent');
    const start = graph.nodes.find((n) => n.type === 'start')!;
    const agent = graph.nodes.find((n) => n.id === added)!;
    expect(agent.position.y).toBeGreaterThan(start.position.y);
  });

  test('an edit never moves a card placed by hand; the steps after it follow it; Tidy up lays out all', () => {
    const seed = seedGraph('inbound');
    const first = addAfter(seed, startOf(seed), 'agent');
    const auto = first.graph.nodes.find((n) => n.id === first.added)!.position;
    const dragged = moveNodes(first.graph, new Map([[first.added, { x: auto.x + 900, y: auto.y - 50 }]]));
    expect(placedByHand(dragged.nodes.find((n) => n.id === first.added)!)).toBe(true);

    // A step after the dragged card: the card stays put, the new step sits below it, shifted with it.
    const second = addAfter(dragged, first.added, 'end-call');
    const agent = second.graph.nodes.find((n) => n.id === first.added)!;
    const end = second.graph.nodes.find((n) => n.id === second.added)!;
    expect(agent.position).toEqual({ x: auto.x + 900, y: auto.y - 50 });
    const plain = addAfter(first.graph, first.added, 'end-call');
    const endPlain = plain.graph.nodes.find((n) => n.id === plain.added)!;
    const agentPlain = plain.graph.nodes.find((n) => n.id === first.added)!;
    expect(end.position).toEqual({ x: agent.position.x + endPlain.position.x - agentPlain.position.x, y: agent.position.y + endPlain.position.y - agentPlain.position.y });
    expect(end.position.y).toBeGreaterThan(agent.position.y);
    // Start, above nothing placed by hand, is laid out as before.
    expect(second.graph.nodes.find((n) => n.type === 'start')!.position).toEqual(plain.graph.nodes.find((n) => n.type === 'start')!.position);
    // Deleting a step elsewhere keeps the card too.
    expect(removeNode(second.graph, second.added).nodes.find((n) => n.id === first.added)!.position).toEqual(agent.position);

    const tidied = tidy(second.graph);
    expect(tidied.nodes.find((n) => n.id === first.added)!.position).toEqual(agentPlain.position);
    expect(tidied.nodes.some(placedByHand)).toBe(false);
  });
});

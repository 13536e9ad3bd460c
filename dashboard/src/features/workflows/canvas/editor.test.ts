import { validate } from '../graph';
import type { Graph } from '../graph';
import { addAfter, addPath, deleteEdge, deleteIncoming, duplicate, DUPLICATE_OFFSET, insertOnEdge, moveNodes, nudge, removeNode, seedGraph, tidy, usedSources } from './editor';
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

  test('duplicate copies the steps with new ids, offset and placed by hand, with the edges between them', () => {
    const seed = seedGraph('outbound');
    const a = addAfter(seed, startOf(seed), 'agent');
    const b = addAfter(a.graph, a.added, 'end-call');
    const g = b.graph;
    const res = duplicate(g, [a.added, b.added]);
    expect(res.added).toHaveLength(2);
    expect(res.skipped).toEqual([]);
    const agent = g.nodes.find((n) => n.id === a.added)!;
    const copies = res.added.map((id) => res.graph.nodes.find((n) => n.id === id)!);
    expect(copies.map((n) => n.type).sort()).toEqual(['agent', 'end-call']);
    const agentCopy = copies.find((n) => n.type === 'agent')!;
    expect(agentCopy.id).not.toBe(agent.id);
    expect(agentCopy.data).toEqual(agent.data);
    expect(agentCopy.position).toEqual({ x: agent.position.x + DUPLICATE_OFFSET.x, y: agent.position.y + DUPLICATE_OFFSET.y });
    expect(copies.every(placedByHand)).toBe(true);
    const endCopy = copies.find((n) => n.type === 'end-call')!;
    expect(res.graph.edges.some((e) => e.source === agentCopy.id && e.target === endCopy.id)).toBe(true);
    // The copy of the first step has no source: it gets a placeholder, as the server would give it.
    expect(res.graph.edges.find((e) => e.target === agentCopy.id)?.source).toMatch(/^invisible-/);
    // The originals are untouched.
    expect(res.graph.nodes.find((n) => n.id === a.added)).toEqual(agent);
  });

  test('duplicate never copies Start or Contacts, and a conditional path takes its paths', () => {
    const seed = seedGraph('outbound');
    const contacts = seed.nodes.find((n) => n.type === 'contacts')!;
    const none = duplicate(seed, [startOf(seed), contacts.id]);
    expect(none.graph).toBe(seed);
    expect(none.skipped.map((n) => n.type).sort()).toEqual(['contacts', 'start']);
    const withCp = addAfter(seed, startOf(seed), 'conditional-path');
    const res = duplicate(withCp.graph, [withCp.added]);
    expect(res.graph.nodes.filter((n) => n.type === 'conditional-path')).toHaveLength(2);
    expect(res.graph.nodes.filter((n) => n.type === 'customer-response')).toHaveLength(4);
  });

  test('deleteEdge drops one connection; its target gets a placeholder', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, startOf(seed), 'agent');
    const e = graph.edges.find((x) => x.source === startOf(seed))!;
    const g = deleteEdge(graph, e.id);
    expect(g.edges.some((x) => x.id === e.id)).toBe(false);
    expect(g.nodes).toHaveLength(graph.nodes.length + 1);
    expect(g.edges.find((x) => x.target === added)?.source).toMatch(/^invisible-/);
    expect(deleteEdge(graph, 'no-such-edge')).toBe(graph);
  });

  test('nudge moves only the given steps and marks them placed by hand', () => {
    const seed = seedGraph('inbound');
    const { graph, added } = addAfter(seed, startOf(seed), 'agent');
    const before = graph.nodes.find((n) => n.id === added)!;
    const g = nudge(graph, [added], 10, -50);
    const after = g.nodes.find((n) => n.id === added)!;
    expect(after.position).toEqual({ x: before.position.x + 10, y: before.position.y - 50 });
    expect(placedByHand(after)).toBe(true);
    expect(g.nodes.find((n) => n.type === 'start')).toEqual(graph.nodes.find((n) => n.type === 'start'));
    expect(nudge(graph, [], 10, 0)).toBe(graph);
  });
});

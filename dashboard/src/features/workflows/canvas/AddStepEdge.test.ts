import { MarkerType } from '@xyflow/react';

import { addAfter, seedGraph, updateData } from './editor';
import { flowEdges } from './AddStepEdge';

describe('edges as drawn', () => {
  test('every edge has an arrowhead; a branch of a Conditional Path carries its condition', () => {
    const seed = seedGraph('inbound');
    const start = seed.nodes.find((n) => n.type === 'start')!.id;
    const { graph, added: cp } = addAfter(seed, start, 'conditional-path');
    const [one, two] = graph.edges.filter((e) => e.source === cp).map((e) => e.target);
    // a described path shows what the customer says; one without a description, its title
    const g = updateData(graph, one!, { nodeLabel: 'Yes', description: 'Confirms the appointment' });
    const edges = flowEdges(g);
    expect(edges.every((e) => typeof e.markerEnd === 'object' && e.markerEnd.type === MarkerType.ArrowClosed)).toBe(true);
    const condition = (target: string) => edges.find((e) => e.source === cp && e.target === target)!.data?.condition;
    expect(condition(one!)).toBe('Confirms the appointment');
    expect(condition(two!)).toBe('Path 2');
    expect(edges.find((e) => e.target === cp)!.data?.condition).toBeUndefined();
  });
});

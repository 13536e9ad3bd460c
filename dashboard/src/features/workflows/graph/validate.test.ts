import { parseGraph, problemsByNode, validate } from './index';

const graph = parseGraph({
  nodes: [
    { id: 'start', type: 'start', data: {} },
    { id: 'greet', type: 'agent', data: { nodeLabel: 'Greet', instruction: '' } },
    { id: 'hook', type: 'webhook', data: { nodeLabel: 'Notify CRM', webhookUrl: 'not a url', webhookMethod: 'POST' } },
    { id: 'end', type: 'end-call', data: {} },
  ],
  edges: [
    { id: 'e1', source: 'start', target: 'greet' },
    { id: 'e2', source: 'greet', target: 'hook' },
    { id: 'e3', source: 'hook', target: 'end' },
  ],
});

describe('what stops a run, step by step', () => {
  test('each problem on a step names the step by id, beside the server’s field', () => {
    const problems = validate(graph, 'inbound');
    expect(problems.map(({ field, nodeId }) => ({ field, nodeId }))).toEqual([
      { field: 'nodes[greet].instruction', nodeId: 'greet' },
      { field: 'nodes[hook].webhookUrl', nodeId: 'hook' },
    ]);
  });

  test('a problem on a connection names the connection, not a step', () => {
    const bad = parseGraph({ nodes: [{ id: 'start', type: 'start' }], edges: [{ id: 'x', source: 'start', target: 'nowhere' }] });
    const [problem] = validate(bad, 'inbound');
    expect(problem).toMatchObject({ field: 'edges[x].target', edgeId: 'x' });
    expect(problem?.nodeId).toBeUndefined();
  });

  test('a problem of the whole graph names neither', () => {
    const [problem] = validate(parseGraph({ nodes: [{ id: 'a', type: 'agent', data: { instruction: 'Hi' } }] }), 'inbound');
    expect(problem).toMatchObject({ field: 'nodes', rule: 'start-missing' });
    expect(problem?.nodeId).toBeUndefined();
    expect(problem?.edgeId).toBeUndefined();
  });

  test('problemsByNode gives each step its reasons in words and leaves out the rest', () => {
    const byNode = problemsByNode([
      ...validate(graph, 'inbound'),
      { field: 'nodes', rule: 'start-missing', message: 'A workflow needs a Start node.' },
      { field: 'nodes[greet]', rule: 'dead-end', message: 'This path does not end.', nodeId: 'greet' },
    ]);
    expect([...byNode.keys()]).toEqual(['greet', 'hook']);
    expect(byNode.get('greet')).toEqual(['No Agent Response: say what the agent says or does.', 'This path does not end.']);
    expect(byNode.get('hook')).toEqual(['A webhook URL is an absolute http or https URL.']);
    expect(byNode.has('end')).toBe(false);
  });
});

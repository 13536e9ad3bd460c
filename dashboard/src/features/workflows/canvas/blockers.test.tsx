import { fireEvent, render, screen } from '@testing-library/react';

import { parseGraph, validate } from '../graph';
import { Blockers } from './Blockers';
import { describeBlockers } from './blockers';

const graph = parseGraph({
  nodes: [
    { id: 'start', type: 'start' },
    { id: '01a22518-cd98-4c4e', type: 'agent', data: { nodeLabel: 'Greet the caller', instruction: '' } },
    { id: 'k', type: 'agent', data: { nodeLabel: '  ', instruction: 'Ask how to help.' } },
    { id: 'end', type: 'end-call', data: {} },
  ],
  edges: [
    { id: 'e1', source: 'start', target: '01a22518-cd98-4c4e' },
    { id: 'e2', source: '01a22518-cd98-4c4e', target: 'k' },
  ],
});

describe('the blockers list names steps as the canvas shows them', () => {
  test('by label, else by kind name, never by id', () => {
    const blockers = describeBlockers(validate(graph, 'inbound'), graph);
    expect(blockers.map(({ label, nodeId }) => ({ label, nodeId }))).toEqual([
      { label: 'Start', nodeId: 'start' },
      { label: 'Greet the caller', nodeId: '01a22518-cd98-4c4e' },
      // no title: the kind's name, as on its card
      { label: 'Agent', nodeId: 'k' },
      { label: 'End Call', nodeId: 'end' },
    ]);
    expect(blockers.every((b) => !b.label.includes('01a22518') && !b.message.includes('nodes['))).toBe(true);
  });

  test('a problem of the whole workflow is the Workflow’s; a connection’s names its ends', () => {
    expect(describeBlockers([{ field: 'nodes', rule: 'start-missing', message: 'A workflow needs a Start node.' }], graph)).toEqual([
      { key: '0:nodes:start-missing', label: 'Workflow', message: 'A workflow needs a Start node.' },
    ]);
    const [known, unknown] = describeBlockers(
      [
        { field: 'edges[e2].target', rule: 'edge-self-loop', message: 'An edge cannot join a node to itself.', edgeId: 'e2' },
        { field: 'edges[zz].id', rule: 'edge-id-duplicate', message: 'Every edge needs an id of its own.', edgeId: 'zz' },
      ],
      graph,
    );
    expect(known).toMatchObject({ label: 'Connection from Greet the caller to Agent', nodeId: '01a22518-cd98-4c4e' });
    expect(unknown).toMatchObject({ label: 'A connection' });
    expect(unknown?.nodeId).toBeUndefined();
  });
});

describe('Blockers', () => {
  test('shows the count closed; open, each problem is a button starting with the step label that focuses it', () => {
    const onFocus = vi.fn();
    render(<Blockers problems={validate(graph, 'inbound')} graph={graph} onFocus={onFocus} />);
    const list = screen.getByTestId('blockers');
    expect(list).toHaveTextContent('What stops it from running (4)');
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    fireEvent.click(screen.getByText('What stops it from running (4)'));
    // jsdom toggles <details> without its toggle event: the event is sent by hand
    fireEvent(list, new Event('toggle'));
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => b.textContent)).toEqual([
      'Start: No path from here reaches an End Call or a Forward Call.',
      'Greet the caller: No Agent Response: say what the agent says or does.',
      'Agent: This path does not end: connect it to an End Call or a Forward Call.',
      'End Call: No path from Start leads here: connect this step to the flow.',
    ]);
    fireEvent.click(buttons[1]!);
    expect(onFocus).toHaveBeenCalledWith('01a22518-cd98-4c4e');
  });

  test('is not there when nothing stops the run', () => {
    const { container } = render(<Blockers problems={[]} graph={graph} onFocus={vi.fn()} />);
    expect(container).toBeEmptyDOMElement();
  });
});

import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { agentNode } from './agent';
import { endCallNode } from './end-call';
import { forwardCallNode } from './forward-call';
import { badData } from '../../graph';

describe('the spoken line of a step', () => {
  it.each([agentNode, endCallNode, forwardCallNode])('is edited in the $label panel', (spec) => {
    const onChange = vi.fn();
    const Edit = spec.Edit!;
    render(<Edit nodeId="n1" data={{ ...spec.defaults(), say: 'Hi {{firstName}}.' }} onChange={onChange} />);
    const field = screen.getByRole('textbox', { name: 'Spoken line' });
    expect(field).toHaveValue('Hi {{firstName}}.');
    expect(field).toHaveAccessibleDescription(/^Said as written when no language model is configured/);
    fireEvent.change(field, { target: { value: 'Goodbye, {{firstName}}.' } });
    expect(onChange).toHaveBeenCalledWith({ say: 'Goodbye, {{firstName}}.' });
  });

  it('sits beside the Agent step’s instruction, which is not read aloud', () => {
    const Edit = agentNode.Edit!;
    render(<Edit nodeId="n1" data={{ nodeLabel: 'Greet', instruction: 'Greet the caller.' }} onChange={vi.fn()} />);
    expect(screen.getByRole('textbox', { name: 'Instruction' })).toHaveAccessibleDescription(/never read aloud/);
    expect(screen.getByRole('textbox', { name: 'Spoken line' })).toHaveValue('');
  });

  it('is text, as the server checks', () => {
    expect(badData({ id: 'a', type: 'agent', position: { x: 0, y: 0 }, data: { say: 3 }, flow_meta: {} })).toEqual({ field: 'say', message: 'This field is text.' });
  });
});

import { render, screen } from '@testing-library/react';
import { ReactFlowProvider } from '@xyflow/react';
import type { ReactNode } from 'react';

import type { Data } from '../../graph';
import { CanvasContext, type CanvasActions } from '../context';
import { NODE_KINDS } from './registry';
import { SMALLEST_CARD_TEXT_PX } from './types';
import { hostOf, requestSummary } from './webhook/request';

function actions(over: Partial<CanvasActions> = {}): CanvasActions {
  return { edit: vi.fn(), remove: vi.fn(), addAfter: vi.fn(), deleteIncoming: vi.fn(), addPath: vi.fn(), patchData: vi.fn(), focus: vi.fn(), usedSources: new Set(), hasIncoming: new Set(), problems: new Map(), workflowId: 'w1', readOnly: false, ...over };
}

function view(kind: keyof typeof NODE_KINDS, data: Data, canvas = actions()): HTMLElement {
  const View = NODE_KINDS[kind].View;
  const wrap = (children: ReactNode) => (
    <ReactFlowProvider>
      <CanvasContext.Provider value={canvas}>{children}</CanvasContext.Provider>
    </ReactFlowProvider>
  );
  return render(wrap(<View id="n1" data={data} />)).container;
}

describe('a card says what its step says or does', () => {
  test('Agent: its spoken line when it has one, else its instruction', () => {
    expect(view('agent', { instruction: 'Greet the caller.', say: 'Hi {{firstName}}!' })).toHaveTextContent('Says“Hi {{firstName}}!”');
    expect(view('agent', { instruction: 'Greet the caller.' })).toHaveTextContent('DoesGreet the caller.');
  });

  test('End Call and Forward Call: the spoken line; Forward Call its number first', () => {
    expect(view('end-call', {})).toHaveTextContent('Says goodbye and hangs up.');
    expect(view('end-call', { say: 'Goodbye.' })).toHaveTextContent('Says“Goodbye.”');
    const forward = view('forward-call', { destinationPhoneNumber: '+14155550123', say: 'Please hold.' });
    expect(forward).toHaveTextContent('Forwards the call to+14155550123Says“Please hold.”');
  });

  test('Webhook: the method and the host, not the whole URL', () => {
    const hook = view('webhook', { webhookUrl: 'https://hooks.example.com/secret/path?token=x', webhookMethod: 'PUT', webhookData: { params: {}, headers: { 'X-Key': 'k' } } });
    expect(hook).toHaveTextContent('PUThooks.example.comSends 1 header');
    expect(hook).not.toHaveTextContent('secret');
    expect(hostOf('not a url')).toBe('not a url');
    expect(requestSummary({ webhookData: { params: { a: '1', b: '2' }, headers: {}, body: { x: 1 } } })).toBe('Sends 2 query parameters, a JSON body');
    expect(requestSummary({})).toBe('No parameters, headers or body');
  });

  test('the other kinds: stage, what the customer says, what it reads, its paths', () => {
    expect(view('hubspot-lifecycle-stage', { lifeCycleStage: 'sales lead' })).toHaveTextContent('Sets the HubSpot lifecycle stage toSales Lead');
    expect(view('customer-response', { description: 'Wants a refund' })).toHaveTextContent('When the customer saysWants a refund');
    expect(view('data-access', {})).toHaveTextContent('Looks up what Betty knows about the caller');
    expect(view('conditional-path', {})).toHaveTextContent('Branches on what the customer says0 paths');
  });

  test('an empty step offers its fix; its reason is on the card’s warning line when the rules give one', () => {
    const alone = view('customer-response', {});
    expect(alone).toHaveTextContent('No Customer Response');
    expect(screen.getByRole('button', { name: 'Add Customer Response' })).toBeInTheDocument();
    const flagged = view('customer-response', {}, actions({ problems: new Map([['n1', ['No Customer Response: describe what the customer says on this path.']]]) }));
    expect(flagged).not.toHaveTextContent('No Customer Response');
  });

  test('every kind has an icon and its colour token', () => {
    for (const spec of Object.values(NODE_KINDS)) {
      expect(spec.icon).toBeTruthy();
      if (spec.kind !== 'invisible') expect(spec.color).toBe(`var(--color-node-${spec.kind})`);
    }
  });

  test(`no card text is smaller than SMALLEST_CARD_TEXT_PX (${SMALLEST_CARD_TEXT_PX} px, text-sm), which the readable zoom is computed from`, () => {
    expect(SMALLEST_CARD_TEXT_PX).toBe(14);
    for (const spec of Object.values(NODE_KINDS)) {
      if (spec.kind === 'invisible' || spec.kind === 'contacts') continue; // Contacts reads the server (its own tests)
      for (const data of [spec.defaults(), { nodeLabel: 'X', instruction: 'Do it.', say: 'Hello.', description: 'Yes', destinationPhoneNumber: '+14155550123', webhookUrl: 'https://a.example.com/x', webhookMethod: 'POST', lifeCycleStage: 'lead' }]) {
        const html = view(spec.kind, data, actions({ problems: new Map([['n1', ['A problem.']]]) })).innerHTML;
        expect(html, spec.kind).not.toMatch(/\btext-(xs|\[\d+px\])/);
      }
    }
  });
});

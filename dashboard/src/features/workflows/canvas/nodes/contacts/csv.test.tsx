import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import type { Organization, User } from '../../../../../api/gen/model';
import { setTokens } from '../../../../../api/session';
import { fakeServer, fakeTeam, fakeUser, ok, pageMeta } from '../../../../../test/fakeServer';
import { TeamContext } from '../../../../team/TeamContext';
import { CanvasContext, type CanvasActions } from '../../context';
import { contactsNode } from '.';

configure({ asyncUtilTimeout: 30_000 });

vi.mock('../../../../../lib/upload', () => ({ uploadFile: vi.fn(async () => ({ id: 'u1', fileUrl: 'https://betty.test/v1/uploads/u1' })), percentOf: () => 100 }));

const canvas: CanvasActions = { edit: vi.fn(), remove: vi.fn(), addAfter: vi.fn(), deleteIncoming: vi.fn(), addPath: vi.fn(), patchData: vi.fn(), focus: vi.fn(), usedSources: new Set(), hasIncoming: new Set(), problems: new Map(), workflowId: 'w1', readOnly: false };
const contact = { id: 'k1', phone: '+14155550100', firstName: 'Ada', created_at: '2026-03-30T10:00:00Z', betty_metadata: { status: 'pending', attempts: 0, callLogId: null, lastError: null, lastCalledAt: null } };

describe('the Contacts node with a CSV file', { timeout: 60_000 }, () => {
  // Node ids are unique only within their workflow: every CSV call names the workflow, or a
  // team with two workflows sharing a node id would be asked which one.
  it('asks for the node’s CSV and its rejected rows with the workflow', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    URL.createObjectURL ??= () => 'blob:x';
    URL.revokeObjectURL ??= () => {};
    const calls = fakeServer({
      'GET /v1/workflow/csv/n1': () => ok({ status: 'success', nodeFile: { fileName: 'list.csv', fileUrl: 'x' }, rows: [contact], error: null, rowsImported: 1, rowsRejected: 2 }, { meta: pageMeta(1, 1, 100) }),
      'GET /v1/workflow/csv/n1/rejected': () => new Response('phone,reason\nnope,Invalid phone number\n', { headers: { 'Content-Type': 'text/csv' } }),
    });
    const team = fakeTeam('t1', 'Acme') as unknown as Organization;
    const View = contactsNode.View;
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <TeamContext.Provider value={{ user: fakeUser() as unknown as User, teams: [team], team, switchTeam: () => {} }}>
            <CanvasContext.Provider value={canvas}>
              <View id="n1" data={{ contactsSource: 'csv' }} />
            </CanvasContext.Provider>
          </TeamContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByText('Ada');
    expect(calls.find((c) => c.path === '/v1/workflow/csv/n1')!.url.searchParams.get('workflowId')).toBe('w1');
    await userEvent.click(screen.getByRole('button', { name: 'Download rejected rows (2)' }));
    await vi.waitFor(() => expect(calls.find((c) => c.path === '/v1/workflow/csv/n1/rejected')).toBeDefined());
    expect(calls.find((c) => c.path === '/v1/workflow/csv/n1/rejected')!.url.searchParams.get('workflowId')).toBe('w1');
  });

  // Letters in a number are refused unless the team asks for them to be read on a keypad.
  it('sends convertLetters only when the checkbox is ticked', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({ 'POST /v1/workflow/contacts': () => ok({ source: 'csv', status: 'parsing' }) });
    const team = fakeTeam('t1', 'Acme') as unknown as Organization;
    const Edit = contactsNode.Edit!;
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <MemoryRouter>
          <TeamContext.Provider value={{ user: fakeUser() as unknown as User, teams: [team], team, switchTeam: () => {} }}>
            <CanvasContext.Provider value={canvas}>
              <Edit nodeId="n1" data={{ contactsSource: 'csv' }} onChange={() => {}} />
            </CanvasContext.Provider>
          </TeamContext.Provider>
        </MemoryRouter>
      </QueryClientProvider>,
    );
    const box = screen.getByRole('checkbox', { name: 'Read letters in numbers as keypad digits' });
    expect(box).not.toBeChecked();
    const file = new File(['phone\n1-800-FLOWERS\n'], 'vanity.csv', { type: 'text/csv' });
    await userEvent.upload(screen.getByLabelText('CSV file'), file);
    await vi.waitFor(() => expect(calls.filter((c) => c.path === '/v1/workflow/contacts')).toHaveLength(1));
    await vi.waitFor(() => expect(box).toBeEnabled());
    await userEvent.click(box);
    await userEvent.upload(screen.getByLabelText('CSV file'), new File(['phone\n1-800-FLOWERS\n'], 'vanity2.csv', { type: 'text/csv' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.path === '/v1/workflow/contacts')).toHaveLength(2));
    const bodies = calls.filter((c) => c.path === '/v1/workflow/contacts').map((c) => c.body as { convertLetters?: boolean });
    expect(bodies.map((b) => b.convertLetters)).toEqual([false, true]);
  });
});

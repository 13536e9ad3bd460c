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

const canvas: CanvasActions = { edit: vi.fn(), remove: vi.fn(), addAfter: vi.fn(), deleteIncoming: vi.fn(), addPath: vi.fn(), patchData: vi.fn(), focus: vi.fn(), usedSources: new Set(), hasIncoming: new Set(), workflowId: 'w1', readOnly: false };
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
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { configure, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import type { Organization, User } from '../../../../../api/gen/model';
import { setTokens } from '../../../../../api/session';
import { fakeServer, fakeTeam, fakeUser, ok, pageMeta, problem } from '../../../../../test/fakeServer';
import { TeamContext } from '../../../../team/TeamContext';
import { CanvasContext, type CanvasActions } from '../../context';
import { lifecycleStageNode } from '../lifecycle-stage';
import { contactsNode } from '.';

configure({ asyncUtilTimeout: 30_000 });

beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});

const hubspotApp = { id: 'a1', organizationId: 't1', connectedAppId: 'a1', integrationId: 'hubspot', status: 'connected', connectionId: 'c1', name: 'acme.hubspot.com', accountId: '1', createdAt: '2026-03-30T10:00:00Z', updatedAt: '2026-03-30T10:00:00Z' };
const contact = (o: Record<string, unknown> = {}) => ({ id: 'h1', phone: '+14155550100', firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', lifecycleStage: 'lead', betty_metadata: { status: 'pending', attempts: 0, callLogId: null, lastError: null, lastCalledAt: null }, created_at: '2026-03-30T10:00:00Z', ...o });

function canvas(over: Partial<CanvasActions> = {}): CanvasActions {
  return { edit: vi.fn(), remove: vi.fn(), addAfter: vi.fn(), deleteIncoming: vi.fn(), addPath: vi.fn(), patchData: vi.fn(), focus: vi.fn(), usedSources: new Set(), hasIncoming: new Set(), problems: new Map(), workflowId: 'w1', readOnly: false, ...over };
}

function wrap(children: ReactNode, actions = canvas()) {
  const team = fakeTeam('t1', 'Acme') as unknown as Organization;
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter>
        <TeamContext.Provider value={{ user: fakeUser() as unknown as User, teams: [team], team, switchTeam: () => {} }}>
          <CanvasContext.Provider value={actions}>{children}</CanvasContext.Provider>
        </TeamContext.Provider>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('the Contacts node with HubSpot', { timeout: 60_000 }, () => {
  it('lists the node’s HubSpot contacts with N/A for what is missing, asking with the node and workflow', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      'GET /v1/apps/connected': () => ok([hubspotApp]),
      'GET /v1/apps/hubspot/contacts': () => ok([contact(), contact({ id: 'h2', phone: '+14155550101', email: undefined, lifecycleStage: undefined, firstName: 'Bo', lastName: undefined })], { meta: pageMeta(1, 2, 100) }),
    });
    const View = contactsNode.View;
    wrap(<View id="n1" data={{ contactsSource: 'hubspot', connectedAppId: 'a1' }} />);
    await screen.findByText('Ada Lovelace');
    for (const h of ['Status', 'Name', 'Phone Number', 'Email', 'Lead/Life Cycle Stage']) expect(screen.getByRole('columnheader', { name: h })).toBeInTheDocument();
    expect(screen.getAllByText('N/A')).toHaveLength(2);
    const sent = calls.find((c) => c.path === '/v1/apps/hubspot/contacts')!.url.searchParams;
    expect(Object.fromEntries(sent)).toMatchObject({ organizationId: 't1', connectedAppId: 'a1', nodeId: 'n1', workflowId: 'w1', page: '1' });
  });

  it('says No Records Found, and why when the app is disconnected', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ 'GET /v1/apps/connected': () => ok([hubspotApp]), 'GET /v1/apps/hubspot/contacts': () => problem(422, 'unprocessable', 'disconnected') });
    const View = contactsNode.View;
    wrap(<View id="n1" data={{ contactsSource: 'hubspot', connectedAppId: 'a1' }} />);
    expect(await screen.findByText('No Records Found')).toBeInTheDocument();
    expect(await screen.findByText(/This HubSpot connection is disconnected/)).toBeInTheDocument();
  });

  it('with Zapier, says the contacts come from Zapier and links to the Zapier page', () => {
    fakeServer({});
    const View = contactsNode.View;
    wrap(<View id="n1" data={{ contactsSource: 'zapier' }} />);
    expect(screen.getByText('Contacts data will come from Zapier')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Configure Zapier' })).toHaveAttribute('href', '/dashboard/zapier?teamId=t1');
  });

  it('sets HubSpot as the source on the server, then a search picks the matches for the node', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      'GET /v1/apps/connected': () => ok([hubspotApp]),
      'POST /v1/workflow/contacts': () => ok({ workflowId: 'w1', nodeId: 'n1', source: 'hubspot', status: 'success', jobId: null, nodeFile: null, connectedAppId: 'a1', listId: null, error: null, updatedAt: '2026-03-30T10:00:00Z' }),
      'GET /v1/apps/hubspot/contacts/search': () => ok([contact()], { meta: pageMeta(1, 1, 100) }),
    });
    const actions = canvas();
    const onChange = vi.fn();
    const Edit = contactsNode.Edit!;
    wrap(<Edit nodeId="n1" data={{}} onChange={onChange} />, actions);
    await userEvent.click(screen.getByRole('combobox', { name: 'Contact source' }));
    await userEvent.click(await screen.findByRole('option', { name: 'HubSpot' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Call contacts from this portal' }));
    await vi.waitFor(() => expect(actions.patchData).toHaveBeenCalledWith('n1', { contactsSource: 'hubspot', connectedAppId: 'a1', listId: '' }));
    expect(calls.find((c) => c.path === '/v1/workflow/contacts')!.body).toEqual({ nodeId: 'n1', workflowId: 'w1', organizationId: 't1', source: 'hubspot', connectedAppId: 'a1' });
    expect(onChange).toHaveBeenCalledWith({ contactsSource: 'hubspot', connectedAppId: 'a1', listId: '' });

    await userEvent.type(await screen.findByLabelText('Search HubSpot'), 'lovelace');
    await userEvent.click(await screen.findByRole('button', { name: 'Add this contact' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.path === '/v1/apps/hubspot/contacts/search').some((c) => c.url.searchParams.get('nodeId') === 'n1')).toBe(true));
    const pick = calls.filter((c) => c.path === '/v1/apps/hubspot/contacts/search').find((c) => c.url.searchParams.get('nodeId') === 'n1')!;
    expect(Object.fromEntries(pick.url.searchParams)).toMatchObject({ match: 'lovelace', workflowId: 'w1', connectedAppId: 'a1', organizationId: 't1' });
  });
});

describe('the Contacts node calling a HubSpot list', { timeout: 60_000 }, () => {
  it('sets the list as the source, and says no search picks for it', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      'GET /v1/apps/connected': () => ok([hubspotApp]),
      'POST /v1/workflow/contacts': () => ok({ workflowId: 'w1', nodeId: 'n1', source: 'hubspot', status: 'parsing', jobId: null, nodeFile: null, connectedAppId: 'a1', listId: '42', error: null, updatedAt: '2026-03-30T10:00:00Z' }),
    });
    const actions = canvas();
    const onChange = vi.fn();
    const Edit = contactsNode.Edit!;
    wrap(<Edit nodeId="n1" data={{ contactsSource: 'hubspot', connectedAppId: 'a1' }} onChange={onChange} />, actions);
    await userEvent.type(await screen.findByLabelText('HubSpot list (optional)'), '42');
    await userEvent.click(screen.getByRole('button', { name: 'Call this list' }));
    await vi.waitFor(() => expect(actions.patchData).toHaveBeenCalledWith('n1', { contactsSource: 'hubspot', connectedAppId: 'a1', listId: '42' }));
    expect(calls.find((c) => c.path === '/v1/workflow/contacts')!.body).toMatchObject({ source: 'hubspot', connectedAppId: 'a1', listId: '42' });
    expect(await screen.findByText(/This node calls the members of HubSpot list 42/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Search HubSpot')).not.toBeInTheDocument();
  });

  it('shows the list being read, then why it could not be', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    let status: 'parsing' | 'error' = 'parsing';
    fakeServer({
      'GET /v1/apps/connected': () => ok([hubspotApp]),
      'GET /v1/apps/hubspot/contacts': () =>
        ok([], { meta: pageMeta(0, 1, 100), source: { workflowId: 'w1', nodeId: 'n1', source: 'hubspot', status, jobId: null, nodeFile: null, connectedAppId: 'a1', listId: '42', error: status === 'error' ? 'HubSpot has no list 42 in acme.hubspot.com.' : null, updatedAt: '2026-03-30T10:00:00Z' } }),
    });
    const View = contactsNode.View;
    const first = wrap(<View id="n1" data={{ contactsSource: 'hubspot', connectedAppId: 'a1', listId: '42' }} />);
    expect(await screen.findByText('HubSpot list 42')).toBeInTheDocument();
    expect(await screen.findByText('Reading the list...')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Search contacts' })).not.toBeInTheDocument();
    first.unmount();
    status = 'error';
    wrap(<View id="n1" data={{ contactsSource: 'hubspot', connectedAppId: 'a1', listId: '42' }} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('HubSpot has no list 42');
  });
});

describe('the lifecycle-stage node', { timeout: 60_000 }, () => {
  it('offers the connected portal’s own stages, stored as Betty’s stage names', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      'GET /v1/apps/connected': () => ok([hubspotApp]),
      'GET /v1/apps/hubspot/lifecyclestages': () => ok([
        { id: 'lead', name: 'Lead' },
        { id: 'marketingqualifiedlead', name: 'Marketing Qualified Lead' },
        { id: '1234', name: 'Churn risk' },
      ]),
    });
    const onChange = vi.fn();
    const Edit = lifecycleStageNode.Edit!;
    wrap(<Edit nodeId="s1" data={{}} onChange={onChange} />);
    await screen.findByText(/The stages of your HubSpot portal/);
    expect(screen.getByText(/One custom stage of the portal cannot be chosen yet/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('combobox', { name: 'Life Cycle Stage' }));
    expect(screen.queryByRole('option', { name: 'Churn risk' })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('option', { name: 'Marketing Qualified Lead' }));
    expect(onChange).toHaveBeenCalledWith({ lifeCycleStage: 'marketing lead' });
    expect(calls.find((c) => c.path === '/v1/apps/hubspot/lifecyclestages')!.url.searchParams.get('connectedAppId')).toBe('a1');
  });
});

import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, problem, serverInfo } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { hubspotOutcome } from './oauthResult';
import { leaveFor } from './redirect';

vi.mock('./redirect', () => ({ leaveFor: vi.fn() }));

configure({ asyncUtilTimeout: 30_000 });

const app = (o: Record<string, unknown> = {}) => ({
  id: 'a1',
  organizationId: 't1',
  connectedAppId: 'a1',
  integrationId: 'hubspot',
  status: 'connected',
  connectionId: 'c1',
  name: 'acme.hubspot.com',
  accountId: '24017381',
  createdAt: '2026-03-30T10:00:00Z',
  updatedAt: '2026-03-30T10:00:00Z',
  ...o,
});

function routes(role = 'owner', apps: unknown[] = [app(), app({ id: 'z1', connectedAppId: 'z1', integrationId: 'zapier', name: 'ops@acme.test', accountId: null })]) {
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/apps/connected': () => ok(apps),
    'POST /v1/apps/connect/hubspot': () => ok({ authorizationUrl: 'https://hubspot.test/oauth/authorize?state=s1', expiresAt: '2026-03-30T10:10:00Z' }),
    'POST /v1/apps/reconnect/hubspot': () => ok({ authorizationUrl: 'https://hubspot.test/oauth/authorize?state=s2', expiresAt: '2026-03-30T10:10:00Z' }),
    'POST /v1/apps/disconnect': () => ok(app({ status: 'disconnected', connectionId: null })),
  };
}

afterEach(() => vi.clearAllMocks());

describe('the OAuth outcome', () => {
  it('reads every reason the callback sends in plain words', () => {
    expect(hubspotOutcome(new URLSearchParams('app=hubspot&result=connected&connectedAppId=a1'))).toEqual({ ok: true, connectedAppId: 'a1' });
    for (const reason of ['denied', 'invalid_state', 'other']) {
      const out = hubspotOutcome(new URLSearchParams(`app=hubspot&result=error&reason=${reason}`));
      expect(out?.ok).toBe(false);
      expect(out && !out.ok && out.message).toMatch(/^HubSpot was not (re)?connected/);
    }
    expect(hubspotOutcome(new URLSearchParams('app=zapier&result=connected'))).toBeNull();
  });
});

describe('the connected apps page', { timeout: 60_000 }, () => {
  it('lists the apps with their status, sends the browser to HubSpot, and disconnects after asking', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    const assign = vi.mocked(leaveFor);
    renderApp('/dashboard/connected-apps?teamId=t1');
    const hubspot = await screen.findByRole('listitem', { name: 'HubSpot acme.hubspot.com' });
    expect(within(hubspot).getByText('Connected')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Zapier ops@acme.test' })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Connect HubSpot' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://hubspot.test/oauth/authorize?state=s1'));
    expect(calls.find((c) => c.path === '/v1/apps/connect/hubspot')!.body).toEqual({ organizationId: 't1' });

    await userEvent.click(within(hubspot).getByRole('button', { name: 'Reconnect' }));
    await vi.waitFor(() => expect(assign).toHaveBeenCalledWith('https://hubspot.test/oauth/authorize?state=s2'));
    expect(calls.find((c) => c.path === '/v1/apps/reconnect/hubspot')!.body).toEqual({ organizationId: 't1', id: 'a1' });

    await userEvent.click(within(hubspot).getByRole('button', { name: 'Disconnect' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    await vi.waitFor(() => expect(calls.find((c) => c.path === '/v1/apps/disconnect')?.body).toEqual({ organizationId: 't1', id: 'a1' }));
  });

  it('says plainly when the server has no HubSpot credentials (501)', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...routes('developer', []), 'POST /v1/apps/connect/hubspot': () => problem(501, 'not_implemented', 'HubSpot is not configured.') });
    renderApp('/dashboard/connected-apps?teamId=t1');
    await screen.findByText('No app is connected');
    await userEvent.click(screen.getByRole('button', { name: 'Connect HubSpot' }));
    const notice = await screen.findByRole('alert', { name: 'HubSpot is not configured on this server' });
    expect(notice).toHaveTextContent('--hubspot-client-id');
  });

  it('shows Connect HubSpot unavailable with the settings when the server says HubSpot is not configured', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({ ...routes('developer', []), ...serverInfo('outbox', { hubspot: false }) });
    renderApp('/dashboard/connected-apps?teamId=t1');
    const notice = await screen.findByRole('alert', { name: 'HubSpot is not configured on this server' });
    expect(notice).toHaveTextContent('--hubspot-client-secret');
    expect(screen.getByRole('button', { name: 'Connect HubSpot' })).toBeDisabled();
    expect(calls.find((c) => c.path === '/v1/apps/connect/hubspot')).toBeUndefined();
  });

  it('shows the outcome of the OAuth round trip that lands on /dashboard', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    const view = renderApp('/dashboard?teamId=t1&app=hubspot&result=error&reason=invalid_state');
    const notice = await screen.findByRole('alert', { name: 'HubSpot not connected' });
    expect(notice).toHaveTextContent('the connection request had expired or was not valid');
    expect(view.router.state.location.pathname).toBe('/dashboard/connected-apps');
    // The outcome leaves the address, so a reload does not show it again.
    await vi.waitFor(() => expect(view.router.state.location.search).not.toContain('reason'));
    view.unmount();

    fakeServer(routes());
    renderApp('/dashboard?teamId=t1&app=hubspot&result=connected&connectedAppId=a1');
    expect(await screen.findByRole('status', { name: 'HubSpot connected' })).toBeInTheDocument();
  });

  it('offers connect and disconnect to developers and above only', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes('member'));
    renderApp('/dashboard/connected-apps?teamId=t1');
    await screen.findByRole('listitem', { name: 'HubSpot acme.hubspot.com' });
    expect(screen.queryByRole('button', { name: 'Connect HubSpot' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Disconnect' })).not.toBeInTheDocument();
    expect(screen.getByText('Only developers, admins and the owner can connect or disconnect apps.')).toBeInTheDocument();
  });
});

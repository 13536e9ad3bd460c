import { configure, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

vi.mock('./redirect', () => ({ leaveFor: vi.fn() }));

configure({ asyncUtilTimeout: 30_000 });

const app = { id: 'a1', organizationId: 't1', connectedAppId: 'a1', integrationId: 'hubspot', status: 'connected', connectionId: 'c1', name: 'acme.hubspot.com', accountId: '24017381', createdAt: '2026-03-30T10:00:00Z', updatedAt: '2026-03-30T10:00:00Z' };

function routes(finish = () => ok(app)) {
  return { ...dashboardRoutes([fakeTeam('t1', 'Acme', 'developer')]), 'GET /v1/apps/connected': () => ok([app]), 'POST /v1/apps/hubspot/callback': finish };
}

describe('the HubSpot callback page', { timeout: 60_000 }, () => {
  it('relays the code and state once, as the signed-in user, and shows the connection', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/apps/hubspot/callback?teamId=t1&code=abc&state=s1');
    await screen.findByRole('status', { name: 'HubSpot connected' });
    const sent = calls.filter((c) => c.path === '/v1/apps/hubspot/callback');
    expect(sent.map((c) => c.body)).toEqual([{ organizationId: 't1', code: 'abc', state: 's1' }]);
    expect(sent[0]?.headers.get('Authorization')).toBe('Bearer a');
  });

  it('says why when the state is someone else’s, and leads back to Connected apps', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes(() => problem(422, 'unprocessable', 'This HubSpot authorisation is not valid any more (used, expired, or started by someone else or for another team): connect HubSpot again.')));
    renderApp('/dashboard/apps/hubspot/callback?teamId=t1&code=abc&state=s1');
    expect(await screen.findByText(/started by someone else/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Connected apps' })).toHaveAttribute('href', '/dashboard/connected-apps?teamId=t1');
  });

  it('sends nothing without a code or state', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/apps/hubspot/callback?teamId=t1&code=abc');
    expect(await screen.findByText('Missing code, state or teamId')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/v1/apps/hubspot/callback')).toBe(false);
  });
});

import { configure, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, pageMeta, problem, serverInfo } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { leaveFor } from '../apps/redirect';

vi.mock('../apps/redirect', () => ({ leaveFor: vi.fn() }));

configure({ asyncUtilTimeout: 30_000 });

const zapierApp = (o: Record<string, unknown> = {}) => ({ id: 'z1', organizationId: 't1', connectedAppId: 'z1', integrationId: 'zapier', status: 'connected', connectionId: 'c1', name: 'ops@acme.test', accountId: '42', createdAt: '2026-03-30T10:00:00Z', updatedAt: '2026-03-30T10:00:00Z', ...o });
const step = (title: string) => ({ title, imageUrl: null });
const zap = (i: number) => ({ id: `zap${i}`, title: `Zap ${i}`, state: i % 2 ? 'on' : 'off', url: `https://zapier.test/editor/${i}`, steps: [step('Betty'), step('Slack')], modifiedAt: '2026-03-30T10:00:00Z' });

function routes(apps: unknown[] = [zapierApp()], role = 'owner') {
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/apps/connected': () => ok(apps),
    'GET /v1/apps/zapier/templates': () => ok([{ id: 'tp1', title: 'Call new Typeform leads', description: 'Adds each new lead to a workflow.', url: 'https://zapier.test/templates/tp1', steps: [step('Typeform'), step('Betty')] }]),
    'GET /v1/apps/zapier/zaps': ({ url }: { url: URL }) => {
      const page = Number(url.searchParams.get('page') ?? 1);
      return ok([1, 2, 3, 4, 5].slice((page - 1) * 4, page * 4).map(zap), { meta: pageMeta(page, 5, 4) });
    },
    'POST /v1/apps/zapier/disconnect': () => ok(zapierApp({ status: 'disconnected', connectionId: null })),
    'POST /v1/auth/zapier/callback': () => ok(zapierApp()),
    'POST /v1/apps/connect/zapier': () => ok({ authorizationUrl: 'https://zapier.test/v2/authorize?state=s1', expiresAt: '2026-03-30T10:10:00Z' }),
    'GET /v1/apps/zapier/hooks': () =>
      ok([
        { id: 'h1', organizationId: 't1', event: 'call.completed', hookUrl: 'https://hooks.zapier.com/hooks/standard/1/secret/', createdAt: '2026-03-30T10:00:00Z', updatedAt: '2026-03-30T10:00:00Z' },
        {
          id: 'h2',
          organizationId: 't1',
          event: 'job.finished',
          hookUrl: 'https://hooks.zapier.com/hooks/standard/2/secret/',
          createdAt: '2026-03-30T10:00:00Z',
          updatedAt: '2026-03-30T10:00:00Z',
          lastDelivery: { event: 'job.finished', status: 'failed', attempts: 4, httpStatus: 500, error: 'the hook answered 500', updatedAt: '2026-03-30T10:20:00Z' },
        },
      ]),
  };
}

describe('the Zapier page', { timeout: 60_000 }, () => {
  it('lists templates that open in Zapier and the zaps 4 a page, and disconnects after asking', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/zapier?teamId=t1');
    const template = await screen.findByText('Call new Typeform leads');
    expect(within(template.closest('li')!).getByRole('link', { name: 'Open in Zapier' })).toHaveAttribute('href', 'https://zapier.test/templates/tp1');
    await screen.findByRole('link', { name: 'Zap 4' });
    expect(screen.queryByRole('link', { name: 'Zap 5' })).not.toBeInTheDocument();
    expect(calls.find((c) => c.path === '/v1/apps/zapier/zaps')!.url.searchParams.get('limit')).toBe('4');
    expect(screen.getByRole('link', { name: 'API keys page' })).toHaveAttribute('href', '/dashboard/api-keys?teamId=t1');
    // A zap's hook address is its secret: only the host shows.
    expect(await screen.findByText('A call finished')).toBeInTheDocument();
    expect(screen.getAllByText('hooks.zapier.com')).toHaveLength(2);
    expect(screen.queryByText(/secret/)).not.toBeInTheDocument();
    // Each trigger says how its latest event went.
    expect(screen.getByText('None yet')).toBeInTheDocument();
    expect(screen.getByText('Failed')).toBeInTheDocument();
    expect(screen.getByText('the hook answered 500')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    await userEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Disconnect' }));
    await vi.waitFor(() => expect(calls.find((c) => c.path === '/v1/apps/zapier/disconnect')?.body).toEqual({ organizationId: 't1', id: 'z1' }));
  });

  it('connects by sending the browser to Zapier’s authorise page, for those who may', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes([]));
    renderApp('/dashboard/zapier?teamId=t1');
    await userEvent.click(await screen.findByRole('button', { name: 'Connect Zapier' }));
    await vi.waitFor(() => expect(vi.mocked(leaveFor)).toHaveBeenCalledWith('https://zapier.test/v2/authorize?state=s1'));
    expect(calls.find((c) => c.path === '/v1/apps/connect/zapier')?.body).toEqual({ organizationId: 't1' });
  });

  // A server without Zapier's OAuth app answers 503 to connecting: the page says what the
  // operator must set instead of offering a Connect that fails.
  it('shows Connect unavailable, naming the settings, when the server has no Zapier app', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({ ...routes([]), ...serverInfo('outbox', { zapier: false }) });
    renderApp('/dashboard/zapier?teamId=t1');
    const note = await screen.findByText(/Zapier is not configured on this server/);
    const button = screen.getByRole('button', { name: 'Connect Zapier' });
    await vi.waitFor(() => expect(button).toBeDisabled());
    expect(button).toHaveAccessibleDescription(/Zapier is not configured on this server/);
    expect(note).toHaveTextContent('starts it with --zapier-client-id and --zapier-client-secret of a Zapier app');
    await userEvent.click(button);
    expect(calls.find((c) => c.path === '/v1/apps/connect/zapier')).toBeUndefined();
  });

  it('offers no Connect to a member', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes([], 'member'));
    renderApp('/dashboard/zapier?teamId=t1');
    await screen.findByText('Not connected.');
    expect(screen.queryByRole('button', { name: 'Connect Zapier' })).not.toBeInTheDocument();
  });

  it('asks no zaps before Zapier is connected, and shows the server’s words when Zapier is unavailable', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({ ...routes([]), 'GET /v1/apps/zapier/templates': () => problem(503, 'unavailable', 'Zapier is not configured on this server (--zapier-client-id).') });
    renderApp('/dashboard/zapier?teamId=t1');
    expect(await screen.findByText(/Zapier is not configured on this server \(--zapier-client-id\)\. Zaps that use an API key work all the same\./, undefined, { timeout: 30_000 })).toBeInTheDocument();
    expect(screen.getByText('Connect Zapier to list the zaps of your Zapier account that use Betty here.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/v1/apps/zapier/zaps')).toBe(false);
  });
});

describe('the Zapier callback page', { timeout: 60_000 }, () => {
  it('sends the code once with the selected team as organizationId', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/apps/zapier/callback?teamId=t1&code=abc');
    await screen.findByRole('status', { name: 'Zapier connected' });
    const sent = calls.filter((c) => c.path === '/v1/auth/zapier/callback');
    expect(sent.map((c) => c.body)).toEqual([{ code: 'abc', organizationId: 't1' }]);
  });

  it('sends the state Zapier sent back with the code', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/apps/zapier/callback?teamId=t1&code=abc&state=s1');
    await screen.findByRole('status', { name: 'Zapier connected' });
    expect(calls.filter((c) => c.path === '/v1/auth/zapier/callback').map((c) => c.body)).toEqual([{ code: 'abc', organizationId: 't1', state: 's1' }]);
  });

  it('says "Missing code or teamId" without a code, and sends nothing', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/zapier/callback?teamId=t1');
    expect(await screen.findByText('Missing code or teamId')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/v1/auth/zapier/callback')).toBe(false);
  });
});

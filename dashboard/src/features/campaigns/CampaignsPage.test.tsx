import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const SETTINGS = {
  maxConcurrentCalls: 5,
  callWindow: { start: '09:00', end: '17:00', days: ['mon'] },
  timezone: 'UTC',
  retryAttempts: 2,
  retryDelayMinutes: 60,
  voicemailAction: 'hang-up',
  voicemailMessage: null,
  recordCalls: true,
  maxCallDurationMinutes: 30,
};

function campaign(n: number) {
  return {
    id: `c${n}`,
    name: `Campaign ${n}`,
    type: 'outbound',
    status: 'draft',
    priority: 'medium',
    purpose: 'Other',
    workflowId: null,
    organizationId: 't1',
    settings: SETTINGS,
    phoneNumberId: null,
    phoneNumber: null,
    workflows: [],
    agents: [],
    createdAt: '2026-01-01T09:00:00Z',
    updatedAt: '2026-01-01T09:00:00Z',
  };
}

/** A server list of campaigns, newest first, 5 a page, clamping a page past the end as Betty does. */
function campaignServer(initial: number) {
  let list = Array.from({ length: initial }, (_, i) => campaign(initial - i));
  let next = initial + 1;
  return fakeServer({
    ...dashboardRoutes(),
    'GET /v1/campaigns/list': ({ url }) => {
      const name = (url.searchParams.get('name') ?? '').toLowerCase();
      const matching = list.filter((c) => c.name.toLowerCase().includes(name));
      const pages = Math.max(1, Math.ceil(matching.length / 5));
      const page = Math.min(Number(url.searchParams.get('page') ?? '1'), pages);
      return ok(matching.slice((page - 1) * 5, page * 5), { meta: pageMeta(page, matching.length, 5) });
    },
    'POST /v1/campaigns/duplicate/c1': () => {
      const copy = { ...campaign(next++), name: 'Copy of Campaign 1' };
      list = [copy, ...list];
      return ok(copy, {}, 201);
    },
    'DELETE /v1/campaigns/c1': () => {
      list = list.filter((c) => c.id !== 'c1');
      return ok({ id: 'c1' });
    },
  });
}

async function act(name: string, action: string) {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  return user;
}

// Each list refetches after a change; on a busy machine that takes longer than the default second (the first test also compiles the lazy page).
configure({ asyncUtilTimeout: 10_000 });

describe('the campaign list', { timeout: 20_000 }, () => {
  it('moves to the next page after duplicating the last campaign of a full page', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    campaignServer(5);
    const { router } = renderApp('/dashboard/campaigns?teamId=t1');
    await act('Campaign 1', 'Duplicate');
    await waitFor(() => expect(router.state.location.search).toContain('page=2'));
    const table = await screen.findByRole('table', { name: 'Campaigns of Acme' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2));
    expect(within(table).getByRole('link', { name: 'Campaign 1' })).toBeInTheDocument();
  });

  it('moves back a page after deleting the last campaign of a page', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    campaignServer(6);
    const { router } = renderApp('/dashboard/campaigns?teamId=t1&page=2');
    const user = await act('Campaign 1', 'Delete');
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete campaign' }));
    await waitFor(() => expect(router.state.location.search).not.toContain('page='));
    expect(await screen.findByRole('link', { name: 'Campaign 6' })).toBeInTheDocument();
  });

  it('keeps the name and status filters in the URL and asks the server with them', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = campaignServer(3);
    const { router } = renderApp('/dashboard/campaigns?teamId=t1&status=draft');
    await screen.findByRole('link', { name: 'Campaign 3' });
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Filter by name' }), 'ign 2');
    await waitFor(() => expect(router.state.location.search).toContain('name=ign+2'));
    expect(router.state.location.search).toContain('status=draft');
    await waitFor(() => expect(screen.queryByRole('link', { name: 'Campaign 3' })).not.toBeInTheDocument());
    const asked = calls.filter((c) => c.path === '/v1/campaigns/list').at(-1)!.url.searchParams;
    expect(asked.get('name')).toBe('ign 2');
    expect(asked.get('status')).toBe('draft');
    expect(asked.get('sizePerPage')).toBe('5');
  });

  it('offers to clear filters that match nothing', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    campaignServer(2);
    const { router } = renderApp('/dashboard/campaigns?teamId=t1&name=zzz');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(router.state.location.search).toBe('?teamId=t1'));
    expect(await screen.findByRole('link', { name: 'Campaign 2' })).toBeInTheDocument();
  });
});

describe('campaign paths', { timeout: 20_000 }, () => {
  it('opens the Agent Profile tab from the spec’s edit-agent-profile path, keeping agentId', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      ...dashboardRoutes(),
      'GET /v1/campaigns/c1': () => ok(campaign(1)),
      'GET /v1/agent/a1': () => ok({ id: 'a1', organizationId: 't1', name: 'Ava', status: 'active', greeting: '', instructions: '', voiceId: null, voicePresetId: null, language: 'en-US', faq: {}, knowledgeFiles: [], audioFiles: [], campaignId: 'c1', createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z' }),
      'GET /v1/voice/presets/list': () => ok([], { meta: pageMeta(1, 0, 100) }),
      'GET /v1/voice/list/t1': () => ok([], { meta: pageMeta(1, 0, 100) }),
    });
    const { router } = renderApp('/dashboard/campaigns/c1/edit-agent-profile?teamId=t1&agentId=a1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/campaigns/c1/agent-profile'));
    expect(router.state.location.search).toBe('?teamId=t1&agentId=a1');
    expect(await screen.findByRole('tab', { name: 'Agent Profile', selected: true })).toBeInTheDocument();
    expect(await screen.findByLabelText('Agent name')).toHaveValue('Ava');
  });
});

describe('editing a campaign', { timeout: 20_000 }, () => {
  it('sends the changed fields and opens the campaign', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      ...dashboardRoutes(),
      'GET /v1/campaigns/c1': () => ok(campaign(1)),
      'PUT /v1/campaigns/c1': ({ body }) => ok({ ...campaign(1), ...(body as object) }),
      'GET /v1/agent/list/campaigns/c1': () => ok([], { meta: pageMeta(1, 0, 10) }),
    });
    const { router } = renderApp('/dashboard/campaigns/c1/edit?teamId=t1');
    const user = userEvent.setup();
    const name = await screen.findByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Autumn renewals');
    await user.click(screen.getByRole('button', { name: 'Save campaign' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/campaigns/c1/agent-profile'));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ name: 'Autumn renewals', type: 'outbound', priority: 'medium', purpose: 'Other' });
  });
});

describe('a campaign’s agents', { timeout: 20_000 }, () => {
  it('activates an agent for the campaign', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const ava = { id: 'a1', organizationId: 't1', name: 'Ava', status: 'inactive', greeting: 'Hi', instructions: '', voiceId: null, voicePresetId: null, language: 'en-US', faq: {}, knowledgeFiles: [], audioFiles: [], campaignId: 'c1', createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z' };
    const calls = fakeServer({
      ...dashboardRoutes(),
      'GET /v1/campaigns/c1': () => ok(campaign(1)),
      'GET /v1/agent/list/campaigns/c1': () => ok([ava], { meta: pageMeta(1, 1, 10) }),
      'PUT /v1/agent/activate/a1': () => ok({ ...ava, status: 'active' }),
    });
    renderApp('/dashboard/campaigns/c1/agent-profile?teamId=t1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Activate Ava' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === '/v1/agent/activate/a1')).toBe(true));
    expect(calls.find((c) => c.path === '/v1/agent/activate/a1')!.url.searchParams.get('organizationId')).toBe('t1');
  });
});

import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

configure({ asyncUtilTimeout: 10_000 });

// Radix Select asks for pointer capture and scrolls its options into view; jsdom has neither.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});

const CAMPAIGN = {
  id: 'c1', name: 'Spring', type: 'outbound', status: 'draft', priority: 'medium', purpose: 'Other', workflowId: null, organizationId: 't1',
  settings: { maxConcurrentCalls: 5, callWindow: { start: '09:00', end: '17:00', days: ['mon'] }, timezone: 'UTC', retryAttempts: 2, retryDelayMinutes: 60, voicemailAction: 'hang-up', voicemailMessage: null, recordCalls: true, maxCallDurationMinutes: 30 },
  phoneNumberId: null, phoneNumber: null, workflows: [], agents: [], createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z',
};

function agent(id: string, name: string, campaignId: string | null, status = 'inactive') {
  return { id, organizationId: 't1', name, status, greeting: 'Hi', instructions: '', voiceId: null, voicePresetId: null, language: 'en-US', faq: {}, knowledgeFiles: [], audioFiles: [], campaignId, createdAt: '2026-01-01T09:00:00Z', updatedAt: '2026-01-01T09:00:00Z' };
}

describe('giving a campaign an agent', { timeout: 45_000 }, () => {
  it('attaches one of the team’s agents instead of only creating a new one', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const bo = agent('a2', 'Bo', null);
    const calls = fakeServer({
      ...dashboardRoutes(),
      'GET /v1/campaigns/c1': () => ok(CAMPAIGN),
      'GET /v1/agent/list/campaigns/c1': () => ok([], { meta: pageMeta(1, 0, 10) }),
      'GET /v1/agent/list/t1': () => ok([agent('a1', 'Ava', 'c1'), bo], { meta: pageMeta(1, 2, 100) }),
      'PATCH /v1/agent/a2': () => ok({ ...bo, campaignId: 'c1' }),
    });
    renderApp('/dashboard/campaigns/c1/agent-profile?teamId=t1');
    const user = userEvent.setup();
    // The first test also loads the page's lazy chunks: slow on a busy machine.
    expect(await screen.findByRole('button', { name: 'Create agent' }, { timeout: 30_000 })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add an existing agent' }));
    await userEvent.click(await screen.findByRole('combobox', { name: 'Agent' }));
    // Ava is in this campaign already: only Bo is offered.
    expect(screen.queryByRole('option', { name: /Ava/ })).not.toBeInTheDocument();
    await userEvent.click(await screen.findByRole('option', { name: 'Bo' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add to campaign' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PATCH' && c.path === '/v1/agent/a2')).toBe(true));
    expect(calls.find((c) => c.path === '/v1/agent/a2')!.body).toEqual({ organizationId: 't1', campaignId: 'c1' });
  });
});

describe('the Agents page', { timeout: 20_000 }, () => {
  it('activates an agent that belongs to no campaign', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const loose = agent('a3', 'Cy', null);
    const calls = fakeServer({
      ...dashboardRoutes(),
      'GET /v1/agent/list/t1': () => ok([loose], { meta: pageMeta(1, 1, 10) }),
      'PUT /v1/agent/activate/a3': () => ok({ ...loose, status: 'active' }),
    });
    renderApp('/dashboard/agents?teamId=t1');
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Activate Cy' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT' && c.path === '/v1/agent/activate/a3')).toBe(true));
  });

  it('names "New agent" once on the new agent’s page', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...dashboardRoutes(), 'GET /v1/voice/presets/list': () => ok([], { meta: pageMeta(1, 0, 100) }), 'GET /v1/voice/list/t1': () => ok([], { meta: pageMeta(1, 0, 100) }) });
    renderApp('/dashboard/agents?teamId=t1&createAgent=true');
    expect(await screen.findByRole('heading', { name: 'New agent', level: 1 })).toBeInTheDocument();
    // The breadcrumb names the page; the editor's card no longer repeats it.
    expect(screen.getAllByRole('heading', { name: 'New agent' })).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Create agent' })).toBeInTheDocument();
  });
});

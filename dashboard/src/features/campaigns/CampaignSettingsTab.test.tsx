import { configure, screen, waitFor } from '@testing-library/react';
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
  allowedNumberTypes: ['toll-free'],
  maxCallDurationMinutes: 30,
};

const CAMPAIGN = {
  id: 'c1',
  name: 'Renewals',
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

// The first test compiles the lazy page; give a busy machine time.
configure({ asyncUtilTimeout: 10_000 });

function serve() {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
  return fakeServer({
    ...dashboardRoutes(),
    'GET /v1/campaigns/c1': () => ok(CAMPAIGN),
    'PUT /v1/campaigns/c1': ({ body }) => ok({ ...CAMPAIGN, settings: (body as { settings: object }).settings }),
    'GET /v1/agent/list/campaigns/c1': () => ok([], { meta: pageMeta(1, 0, 10) }),
  });
}

function sentSettings(calls: ReturnType<typeof serve>) {
  return (calls.find((c) => c.method === 'PUT')!.body as { settings: Record<string, unknown> }).settings;
}

describe('the campaign settings tab', { timeout: 20_000 }, () => {
  it('shows the kinds of numbers allowed and sends the ones ticked', async () => {
    const calls = serve();
    renderApp('/dashboard/campaigns/c1/settings?teamId=t1');
    const tollFree = await screen.findByRole('checkbox', { name: 'Toll-free' });
    expect(tollFree).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Premium-rate' })).not.toBeChecked();
    expect(screen.getByText(/numbers from the storefront, Zapier or HubSpot are called only when they are landlines or mobiles/)).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Premium-rate' }));
    await user.click(tollFree);
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(sentSettings(calls)['allowedNumberTypes']).toEqual(['premium-rate']);
  });

  it('shows the longest call a campaign allows and sends a new one with the settings', async () => {
    const calls = serve();
    renderApp('/dashboard/campaigns/c1/settings?teamId=t1');
    const user = userEvent.setup();
    const longest = await screen.findByLabelText('Longest call (minutes)');
    expect(longest).toHaveValue(30);

    // Out of the contract's range: said at once, nothing sent.
    await user.clear(longest);
    await user.type(longest, '241');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('A whole number of minutes from 1 to 240.')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'PUT')).toBe(false);

    await user.clear(longest);
    await user.type(longest, '45');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(sentSettings(calls)).toEqual({ ...SETTINGS, maxCallDurationMinutes: 45 });
  });
});

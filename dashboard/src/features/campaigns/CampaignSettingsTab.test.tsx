import { configure, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, ok } from '../../test/fakeServer';
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

// The first test also compiles the lazy page.
configure({ asyncUtilTimeout: 10_000 });

describe('the campaign settings tab', { timeout: 20_000 }, () => {
  it('shows the longest call a campaign allows and sends a new one with the settings', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      ...dashboardRoutes(),
      'GET /v1/campaigns/c1': () => ok(CAMPAIGN),
      'PUT /v1/campaigns/c1': ({ body }) => ok({ ...CAMPAIGN, settings: (body as { settings: object }).settings }),
    });
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
    const sent = calls.find((c) => c.method === 'PUT')!.body as { settings: Record<string, unknown> };
    expect(sent.settings).toEqual({ ...SETTINGS, maxCallDurationMinutes: 45 });
  });
});

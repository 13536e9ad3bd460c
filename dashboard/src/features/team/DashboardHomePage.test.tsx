import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { recentActivity } from '../../lib/activity';
import { dashboardRoutes, emptyMeta, fakeApiKey, fakeMember, fakeServer, ok, onboarding } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

describe('Home', () => {
  it('shows the team’s real figures and its recent activity, and no invented ones', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      ...dashboardRoutes(),
      'GET /v1/team/onboarding/t1': () => ok(onboarding('t1')),
      'GET /v1/team/members/list': () => ok([fakeMember({ name: 'Olivia' }), fakeMember({ id: 'm2', email: 'ivan@example.com', status: 'invited', joinedAt: null, invitedAt: '2026-01-04T00:00:00Z' })], { meta: { ...emptyMeta, totalSize: 2, totalPages: 1 } }),
      'GET /v1/team/api-keys': () => ok([fakeApiKey({ createdBy: { id: 'u1', email: 'o@example.com', name: 'Olivia', avatarUrl: null } })]),
      'GET /v1/campaigns/list': () => ok([], { meta: { ...emptyMeta, totalSize: 3, totalPages: 3 } }),
      'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 42.5, subscriptionTier: 'free', subscriptionEndAt: null }),
      'GET /v1/call/organization/t1': ({ url }) => ok({ startDate: url.searchParams.get('startDate'), endDate: url.searchParams.get('endDate'), totalCalls: 4, dailyData: [{ date: url.searchParams.get('startDate'), count: 4 }] }),
    });
    renderApp('/dashboard?teamId=t1');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });
    expect(await within(screen.getByTestId('stat-members')).findByText('2')).toBeInTheDocument();
    expect(await within(screen.getByTestId('stat-campaigns')).findByText('3')).toBeInTheDocument();
    expect(await within(screen.getByTestId('stat-credits')).findByText('42.50')).toBeInTheDocument();
    const activity = await screen.findByTestId('activity');
    expect(within(activity).getByText('ivan@example.com was invited')).toBeInTheDocument();
    expect(within(activity).getByText('Olivia created the API key “CI”')).toBeInTheDocument();
    expect(await within(screen.getByTestId('stat-calls-today')).findByText('4')).toBeInTheDocument();
    // Calls and billing are built: no figure is announced for later.
    expect(screen.queryByTestId('later-figures')).not.toBeInTheDocument();
  });
});

describe('recent activity', () => {
  it('is newest first and only from records that exist', () => {
    const entries = recentActivity({
      team: { id: 't1', name: 'Acme', createdAt: '2026-01-01T00:00:00Z' },
      members: [fakeMember({ name: 'Olivia', joinedAt: '2026-01-02T00:00:00Z' }), fakeMember({ id: 'm3', status: 'removed' })] as never,
      apiKeys: [fakeApiKey()] as never,
    });
    expect(entries.map((e) => e.text)).toEqual(['Someone created the API key “CI”', 'Olivia joined the team', 'Acme was created']);
  });
});

import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, emptyMeta, fakeTeam, fakeServer, ok, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const usage = { organizationId: 't1', month: 11, year: 2026, currency: 'USD', ratePerMinute: 0.27, calls: 3, minutes: 10, cost: 2.7, days: [{ date: '2026-11-01', calls: 3, minutes: 10, cost: 2.7 }] };

/** The server's tier catalogue (a fixture: the figures are the server's to decide). */
function catalog(paymentsConfigured: boolean) {
  const limits = (calls: number) => ({ customVoiceProfiles: 1, concurrentCalls: calls, phoneNumbers: 5, teamMembers: 10 });
  return {
    paymentsConfigured,
    creditPriceUsd: 1,
    callMinuteRateUsd: 0.27,
    tiers: [
      { tier: 'free', name: 'Free', monthlyPriceUsd: 0, purchasable: false, limits: limits(2) },
      { tier: 'tier1', name: 'Starter Plan', monthlyPriceUsd: 49, purchasable: true, limits: limits(5) },
      { tier: 'tier2', name: 'Professional Plan', monthlyPriceUsd: 149, purchasable: true, limits: limits(10) },
      { tier: 'tier3', name: 'Growth', monthlyPriceUsd: 399, purchasable: true, limits: limits(20) },
      { tier: 'tier4', name: 'Custom', monthlyPriceUsd: null, purchasable: false, limits: limits(100) },
    ],
  };
}

function billingRoutes(role: string, status = 'none', paymentsConfigured = true) {
  return {
    'GET /v1/payment/tiers': () => ok(catalog(paymentsConfigured)),
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 12.5, subscriptionTier: 'tier1', subscriptionEndAt: '2026-12-01T00:00:00Z' }),
    'GET /v1/team/subscription/status': () => ok({ organizationId: 't1', subscriptionTier: 'tier1', status, currentPeriodEnd: '2026-12-01T00:00:00Z', cancelAtPeriodEnd: false, trialEndsAt: null }),
    'GET /v1/team/subscription-credits/billing-address': () => ok({ organizationId: 't1', updatedAt: null }),
    'GET /v1/team/team-costs-usage/t1': () => ok(usage),
    'GET /v1/payment/subscriptions/phone-number': () => ok([], { meta: emptyMeta }),
    'POST /v1/payment/intent/credits': () => problem(503, 'payments_not_configured', 'Payments are not configured on this server: set --stripe-secret-key (BETTY_STRIPE_SECRET_KEY).'),
  };
}

describe('Billing', () => {
  it('shows a developer the balance and the next upgrade, but not the controls that spend money', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(billingRoutes('developer'));
    renderApp('/dashboard/billing?teamId=t1');
    expect(await screen.findByText('12.50 credits')).toBeInTheDocument();
    expect(screen.getByTestId('tier-tier2')).toHaveAttribute('data-highlighted', 'true');
    expect(within(screen.getByTestId('tier-tier1')).getByText('Current plan')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Buy/ })).not.toBeInTheDocument();
    expect(screen.getAllByText('Only admins and the owner can spend the team’s money or change its billing details.').length).toBeGreaterThan(0);
    expect(await screen.findByTestId('usage-chart')).toBeInTheDocument();
  });

  it('says honestly that payments are not set up when the server has no Stripe', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(billingRoutes('owner'));
    renderApp('/dashboard/billing?teamId=t1');
    fireEvent.click(await screen.findByRole('button', { name: /^Buy 50 credits/ }));
    const notice = await screen.findByTestId('payments-not-configured');
    expect(notice).toHaveTextContent('Payments are not set up on this server.');
    expect(notice).toHaveTextContent('--stripe-secret-key');
    expect(calls.find((c) => c.path === '/v1/payment/intent/credits')?.body).toMatchObject({ organizationId: 't1', credits: 50 });
  });

  it('shows the server’s prices and limits, and says up front when it takes no payments', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(billingRoutes('owner', 'none', false));
    renderApp('/dashboard/billing?teamId=t1');
    const growth = await screen.findByTestId('tier-tier3');
    expect(growth).toHaveTextContent('$399 a month');
    expect(growth).toHaveTextContent('20 calls at once');
    expect(screen.getByTestId('tier-tier4')).toHaveTextContent('Talk to sales');
    expect(await screen.findByTestId('payments-not-configured')).toHaveTextContent('--stripe-secret-key');
    expect(within(growth).getByRole('button', { name: 'Choose Growth' })).toBeDisabled();
    expect(screen.getByRole('button', { name: /^Buy 50 credits/ })).toBeDisabled();
  });

  it('sends a trial code with the plan chosen', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      ...billingRoutes('owner'),
      'GET /v1/team/subscription-credits': () => ok({ organizationId: 't1', balance: 0, subscriptionTier: 'free', subscriptionEndAt: null }),
      'POST /v1/payment/intent/tier-subscription': () =>
        problem(422, 'invalid', 'The request is not valid.', [{ field: 'body.trialPeriodCode', message: 'Unknown trial code.' }]),
    });
    renderApp('/dashboard/billing?teamId=t1');
    fireEvent.click(await screen.findByRole('button', { name: 'Have a trial code?' }));
    fireEvent.change(screen.getByLabelText('Trial code'), { target: { value: 'trial14' } });
    fireEvent.click(screen.getByRole('button', { name: 'Choose Starter Plan' }));
    expect(await screen.findByText('Unknown trial code.')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/v1/payment/intent/tier-subscription')?.body).toMatchObject({ targetTierType: 'tier1', trialPeriodCode: 'trial14' });
  });

  it('raises a past-due banner in the shell for those who see billing, and refuses members', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(billingRoutes('admin', 'past_due'));
    const first = renderApp('/dashboard?teamId=t1');
    expect(await screen.findByTestId('past-due-banner')).toHaveTextContent('The last payment of Acme’s plan failed');
    first.unmount();

    fakeServer(billingRoutes('member', 'past_due'));
    renderApp('/dashboard/billing?teamId=t1');
    expect(await screen.findByText('Billing is shown to developers, admins and the owner of the team.')).toBeInTheDocument();
    expect(screen.queryByTestId('past-due-banner')).not.toBeInTheDocument();
    expect(screen.queryByTestId('credit-balance')).not.toBeInTheDocument();
  });
});

import { act, screen, waitFor, within } from '@testing-library/react';
import { focusManager } from '@tanstack/react-query';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, emptyMeta, fakeServer, fakeTeam, fakeUser, ok, onboarding, problem, serverInfo } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

function adminOrganization(balance: number) {
  return { organization: fakeTeam('t9', 'Globex'), memberCount: 1, balance, subscriptionEndAt: null, refreshedAt: '2026-01-01T00:00:00Z' };
}

function searchRoutes() {
  return {
    ...serverInfo('outbox'),
    ...dashboardRoutes(undefined, { isSiteAdmin: true }),
    'GET /v1/admin/mail': () => ok([], { meta: emptyMeta }),
    'GET /v1/admin/organization/users-organizations': () =>
      ok(
        [
          {
            user: { id: 'u9', email: 'gus@globex.test', name: 'Gus' },
            isSiteAdmin: false,
            isInternal: false,
            organizations: [
              { organizationId: 't9', organizationMemberId: 'm9', name: 'Globex', companyName: null, role: 'owner', status: 'active', verificationLevel: 'none', subscriptionTier: 'free', joinedAt: '2026-01-01T00:00:00Z' },
            ],
          },
        ],
        { meta: { ...emptyMeta, totalSize: 1, totalPages: 1 } },
      ),
  };
}

describe('granting credits on the site-admin page', { timeout: 30_000 }, () => {
  it('grants a team credits and shows its new balance; a bad amount and a refusal say why', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    let refuse = false;
    const calls = fakeServer({
      ...searchRoutes(),
      'POST /v1/admin/organization/grant-credits': ({ url }) =>
        refuse ? problem(404, 'not_found', 'There is no team with this id.') : ok(adminOrganization(Number(url.searchParams.get('credits')))),
    });
    renderApp('/admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Grant credits to Globex' }, { timeout: 10_000 }));
    const dialog = await screen.findByRole('dialog', { name: 'Grant credits to Globex' });
    const amount = within(dialog).getByLabelText('Credits');

    await userEvent.clear(amount);
    await userEvent.type(amount, '0');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant credits' }));
    expect(within(dialog).getByText('Enter a whole number of credits from 1 to 100,000.')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/v1/admin/organization/grant-credits')).toBe(false);

    await userEvent.clear(amount);
    await userEvent.type(amount, '250');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant credits' }));
    expect(await within(dialog).findByRole('status')).toHaveTextContent("Granted. Globex's balance is now $250.00.");
    const grant = calls.find((c) => c.path === '/v1/admin/organization/grant-credits')!;
    expect(grant.method).toBe('POST');
    expect(grant.url.searchParams.get('organizationId')).toBe('t9');
    expect(grant.url.searchParams.get('credits')).toBe('250');

    refuse = true;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Grant credits' }));
    expect(await within(dialog).findByText('There is no team with this id.')).toBeInTheDocument();
  });
});

describe('the Admin navigation entry', { timeout: 30_000 }, () => {
  it('appears once the user is made site admin, when they come back to the tab, without signing in again', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    let admin = false;
    fakeServer({
      ...dashboardRoutes(),
      'GET /v1/auth/me': () => ok(fakeUser({ isSiteAdmin: admin })),
      'GET /v1/team/onboarding/t1': () => ok(onboarding('t1')),
    });
    renderApp('/dashboard?teamId=t1');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });
    const nav = screen.getAllByRole('navigation')[0]!;
    expect(within(nav).queryByRole('link', { name: /Site admin|Admin/ })).toBeNull();

    admin = true; // `betty admin grant` in a terminal
    act(() => {
      focusManager.setFocused(false);
      focusManager.setFocused(true);
    });
    await waitFor(() => expect(screen.getAllByRole('link', { name: /Site admin|Admin/ }).length).toBeGreaterThan(0));
  });
});

describe('the site-admin notice on Home', { timeout: 30_000 }, () => {
  it('tells a site admin once what they can do, and remembers the dismissal on the server', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      ...dashboardRoutes(undefined, { isSiteAdmin: true }),
      'GET /v1/team/onboarding/t1': () => ok(onboarding('t1')),
      'POST /v1/auth/user': ({ body }) => ok(fakeUser({ isSiteAdmin: true, profile: { ...fakeUser().profile, ...(body as { props: object }).props } })),
    });
    renderApp('/dashboard?teamId=t1');
    const notice = await screen.findByRole('region', { name: "You are this server's site administrator" });
    expect(notice).toHaveTextContent('grant a team credits');
    expect(within(notice).getByRole('link', { name: 'Open Site admin' })).toHaveAttribute('href', '/admin');
    await userEvent.click(within(notice).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: "You are this server's site administrator" })).toBeNull());
    const saved = calls.find((c) => c.path === '/v1/auth/user')!;
    expect(saved.body).toEqual({ props: { preferences: { siteAdminNoticeDismissed: true } } });
  });

  it('is not shown to other users, nor once dismissed', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      ...dashboardRoutes(undefined, { isSiteAdmin: true, profile: { ...fakeUser().profile, preferences: { siteAdminNoticeDismissed: true } } }),
      'GET /v1/team/onboarding/t1': () => ok(onboarding('t1')),
    });
    renderApp('/dashboard?teamId=t1');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });
    expect(screen.queryByRole('region', { name: "You are this server's site administrator" })).toBeNull();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { emptyMeta, fakeServer, fakeTeam, fakeUser, ok, onboarding, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

function member(organizationId: string) {
  return { id: 'm1', organizationId, userId: 'user-1', email: 'olivia@example.com', name: null, role: 'member', status: 'active', invitedAt: null, joinedAt: null, removedAt: null, createdAt: '', updatedAt: '' };
}

describe('invitation link', () => {
  it('signed out, offers sign-in and sign-up that come back to the link', async () => {
    fakeServer({});
    renderApp('/invite?inviteToken=tok-123');
    const main = await screen.findByRole('main');
    await within(main).findByRole('heading', { level: 1, name: 'Join a team' });
    const back = encodeURIComponent('/invite?inviteToken=tok-123');
    expect(within(main).getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', `/sign-in?next=${back}`);
    expect(within(main).getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', `/sign-up?next=${back}`);
  });

  it('signed in, accepts the token (short form t=) once and opens the team', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      'POST /v1/team/accept-invite': () => ok(member('t7')),
      'GET /v1/auth/me': () => ok(fakeUser()),
      'GET /v1/team/list': () => ok([fakeTeam('t7', 'Joined Co', 'member')], { meta: emptyMeta }),
      'GET /v1/team/get-valid-pending-invitations': () => ok([]),
      'GET /v1/team/onboarding/t7': () => ok(onboarding('t7')),
    });
    const { router } = renderApp('/invite?t=tok-456');
    await screen.findByRole('heading', { level: 1, name: 'Joined Co' });
    expect(router.state.location.pathname).toBe('/dashboard');
    expect(new URLSearchParams(router.state.location.search).get('teamId')).toBe('t7');
    const accepts = calls.filter((c) => c.path === '/v1/team/accept-invite');
    expect(accepts).toHaveLength(1);
    expect(accepts[0]?.body).toEqual({ token: 'tok-456' });
  });

  it("shows the server's reason when the invitation cannot be used", async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ 'POST /v1/team/accept-invite': () => problem(410, 'gone', 'This invitation has expired. Ask for a new one.') });
    renderApp('/invite?inviteToken=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invitation has expired. Ask for a new one.');
  });
});

describe('ownership transfer link', () => {
  it('signed in, confirms and opens the team settings', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      'POST /v1/team/confirm-transfer-ownership': () => ok(fakeTeam('t3', 'Taken Over')),
      'GET /v1/auth/me': () => ok(fakeUser()),
      'GET /v1/team/list': () => ok([fakeTeam('t3', 'Taken Over')], { meta: emptyMeta }),
      'GET /v1/team/get-valid-pending-invitations': () => ok([]),
    });
    const { router } = renderApp('/transfer-ownership?transferOwnershipToken=xfer');
    await screen.findByRole('heading', { level: 1, name: 'Team settings' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/team'));
    expect(calls.find((c) => c.path === '/v1/team/confirm-transfer-ownership')?.body).toEqual({ transferOwnershipToken: 'xfer' });
  });
});

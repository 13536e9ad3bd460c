import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { getTokens, setTokens } from '../../api/session';
import { emptyMeta, fakeServer, fakeTeam, fakeUser, ok, onboarding, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { safeNext } from './session';

function session() {
  return { accessToken: 'access-1', refreshToken: 'refresh-1', tokenType: 'Bearer', expiresAt: '2030-01-01T00:00:00Z', expiresIn: 900, refreshTokenExpiresAt: '2030-01-01T00:00:00Z', user: fakeUser() };
}

function dashboardRoutes(teams = [fakeTeam('t1', 'Acme'), fakeTeam('t2', 'Globex')]) {
  return {
    'GET /v1/auth/me': () => ok(fakeUser()),
    'GET /v1/team/list': () => ok(teams, { meta: { ...emptyMeta, totalSize: teams.length } }),
    'GET /v1/team/get-valid-pending-invitations': () => ok([]),
    'GET /v1/team/onboarding/t1': () => ok(onboarding('t1')),
    'GET /v1/team/onboarding/t2': () => ok(onboarding('t2')),
    'POST /v1/auth/sign-out': () => ok({ message: 'Signed out.' }),
  };
}

describe('safeNext', () => {
  it('keeps same-site paths and refuses others', () => {
    expect(safeNext('/invite?t=abc')).toBe('/invite?t=abc');
    expect(safeNext('//evil.example')).toBe('/dashboard');
    expect(safeNext('https://evil.example')).toBe('/dashboard');
    expect(safeNext(null)).toBe('/dashboard');
  });
});

describe('session routing', () => {
  it('sends a signed-out visitor of a protected page to sign-in, and back after signing in', async () => {
    const calls = fakeServer({ ...dashboardRoutes(), 'POST /v1/auth/sign-in': () => ok(session()) });
    const { router } = renderApp('/dashboard/members?teamId=t2');

    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    expect(router.state.location.pathname).toBe('/sign-in');
    expect(new URLSearchParams(router.state.location.search).get('next')).toBe('/dashboard/members?teamId=t2');

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'olivia@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/members'));
    expect(getTokens()).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    expect(calls.find((c) => c.path === '/v1/auth/sign-in')?.body).toEqual({ email: 'olivia@example.com', password: 'secret-password' });
  });

  it('shows the server message when sign-in is refused', async () => {
    fakeServer({ 'POST /v1/auth/sign-in': () => problem(401, 'invalid_credentials', 'The e-mail or password is not correct.') });
    renderApp('/sign-in');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'olivia@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The e-mail or password is not correct.');
    expect(getTokens()).toBeNull();
  });

  it('signs out to the start page', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(dashboardRoutes());
    const { router } = renderApp('/dashboard?teamId=t1');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Account menu/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Sign out' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(getTokens()).toBeNull();
  });
});

describe('team selection in the dashboard', () => {
  it('replaces a teamId the user is not a member of with the first team', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(dashboardRoutes());
    const { router } = renderApp('/dashboard?teamId=someone-elses');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('teamId')).toBe('t1'));
  });

  it('opens the team remembered for this user when the URL names none', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    window.localStorage.setItem('betty.team.user-1', 't2');
    fakeServer(dashboardRoutes());
    const { router } = renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Globex' });
    expect(new URLSearchParams(router.state.location.search).get('teamId')).toBe('t2');
  });

  it('leads a user with no team to create one', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      ...dashboardRoutes([]),
      'POST /v1/team/new': () => ok(fakeTeam('t9', 'New Co'), {}, 201),
    });
    renderApp('/dashboard');
    await screen.findByRole('heading', { level: 1, name: 'Create your team' });
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Team name'), 'New Co');
    await user.type(screen.getByLabelText('Industry'), 'Retail');
    await user.click(screen.getByRole('button', { name: 'Create team' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/v1/team/new')).toBe(true));
    expect(calls.find((c) => c.path === '/v1/team/new')?.body).toEqual({ name: 'New Co', industry: 'Retail' });
  });

  it('hides what the role may not use, with the reason', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(dashboardRoutes([fakeTeam('t1', 'Acme', 'member')]));
    renderApp('/dashboard/api-keys?teamId=t1');
    const main = await screen.findByRole('main');
    expect(await within(main).findByText(/Only developers, admins and the owner can manage API keys/)).toBeInTheDocument();
    expect(within(main).queryByRole('button', { name: 'Create API key' })).not.toBeInTheDocument();
  });
});

describe('members screen by role', () => {
  it('offers a member no invitation or role controls, and says why', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const members = [
      { id: 'm1', organizationId: 't1', userId: 'u0', email: 'boss@example.com', name: 'Boss', role: 'owner', status: 'active', invitedAt: null, joinedAt: null, removedAt: null, createdAt: '', updatedAt: '' },
      { id: 'm2', organizationId: 't1', userId: 'user-1', email: 'olivia@example.com', name: 'Olivia', role: 'member', status: 'active', invitedAt: null, joinedAt: null, removedAt: null, createdAt: '', updatedAt: '' },
      { id: 'm3', organizationId: 't1', userId: 'u2', email: 'dev@example.com', name: 'Dev', role: 'developer', status: 'active', invitedAt: null, joinedAt: null, removedAt: null, createdAt: '', updatedAt: '' },
    ];
    fakeServer({
      ...dashboardRoutes([fakeTeam('t1', 'Acme', 'member')]),
      'GET /v1/team/members/list': () => ok(members, { meta: { ...emptyMeta, totalSize: 3, start: 1, end: 3, totalPages: 1 } }),
    });
    renderApp('/dashboard/members?teamId=t1');
    const main = await screen.findByRole('main');
    await within(main).findByText('dev@example.com');
    expect(within(main).getByText(/Only admins and the owner can invite/)).toBeInTheDocument();
    expect(within(main).queryByRole('button', { name: 'Invite member' })).not.toBeInTheDocument();
    expect(within(main).queryByRole('combobox')).not.toBeInTheDocument();
    // Anyone may leave: the member's own row keeps its actions menu, the others have none.
    expect(within(main).getByRole('button', { name: 'Actions for Olivia' })).toBeInTheDocument();
    expect(within(main).queryByRole('button', { name: 'Actions for Dev' })).not.toBeInTheDocument();
  });
});

describe('form validation', () => {
  it('explains a bad sign-up and moves focus to the first field in error', async () => {
    const calls = fakeServer({});
    renderApp('/sign-up');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'not-an-address');
    await user.type(screen.getByLabelText('Password'), 'short');
    await user.click(screen.getByRole('button', { name: 'Create account' }));
    const email = screen.getByLabelText('E-mail');
    await waitFor(() => expect(email).toHaveFocus());
    expect(email).toHaveAccessibleDescription('Enter an e-mail address like name@example.com.');
    // One message about the rule, not the hint beside the error.
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription('Use at least 8 characters.');
    expect(calls.filter((c) => c.path === '/v1/auth/sign-up')).toHaveLength(0);
  });
});

describe('members paging and the admin area', () => {
  it('asks the server for the next page of ten members', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const people = (page: number) =>
      Array.from({ length: page === 1 ? 10 : 2 }, (_, i) => ({
        id: `m${page}-${i}`, organizationId: 't1', userId: null, email: `p${page}-${i}@example.com`, name: null, role: 'member', status: 'active',
        invitedAt: null, joinedAt: null, removedAt: null, createdAt: '', updatedAt: '',
      }));
    const calls = fakeServer({
      ...dashboardRoutes(),
      'GET /v1/team/members/list': ({ url }) => {
        const page = Number(url.searchParams.get('page'));
        return ok(people(page), { meta: { page, totalSize: 12, start: page === 1 ? 1 : 11, end: page === 1 ? 10 : 12, hasNext: page === 1, hasPrevious: page === 2, totalPages: 2 } });
      },
    });
    const { router } = renderApp('/dashboard/members?teamId=t1');
    await screen.findByText('p1-0@example.com');
    expect(screen.getByText('Showing 1 - 10 of 12')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('p2-0@example.com');
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('2');
    // StrictMode mounts twice in development, so page 1 may be asked for twice; page 2 follows the click.
    const pages = calls.filter((c) => c.path === '/v1/team/members/list').map((c) => c.url.searchParams.get('page'));
    expect([...new Set(pages)]).toEqual(['1', '2']);
    expect(calls.filter((c) => c.path === '/v1/team/members/list').at(-1)?.url.searchParams.get('sizePerPage')).toBe('10');
  });

  it('keeps people who are not site admins out of /admin', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(dashboardRoutes());
    const { router } = renderApp('/admin');
    await screen.findByRole('heading', { level: 1, name: 'Acme' });
    expect(router.state.location.pathname).toBe('/dashboard');
  });
});

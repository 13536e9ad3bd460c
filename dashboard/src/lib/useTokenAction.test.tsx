import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../api/session';
import { fakeServer, fakeUser, ok, problem } from '../test/fakeServer';
import { renderApp } from '../test/renderApp';
import { tokenFromUrl } from './useTokenAction';

describe('tokenFromUrl', () => {
  it('takes the first parameter present, trimmed', () => {
    expect(tokenFromUrl(new URLSearchParams('t=short'), ['inviteToken', 't'])).toBe('short');
    expect(tokenFromUrl(new URLSearchParams('inviteToken=long&t=short'), ['inviteToken', 't'])).toBe('long');
    expect(tokenFromUrl(new URLSearchParams('inviteToken=%20&t=x'), ['inviteToken', 't'])).toBe('x');
    expect(tokenFromUrl(new URLSearchParams(''), ['token'])).toBe('');
  });
});

describe('a page that uses a token from its link', () => {
  it('uses it once, in StrictMode and when the page is opened again', async () => {
    const calls = fakeServer({ 'POST /v1/auth/confirm-email': () => ok(fakeUser({ email: 'olivia@example.com' })) });
    const { router } = renderApp('/confirm-email?token=tok-1');
    expect(await screen.findByText('olivia@example.com')).toBeInTheDocument();

    // Away and back to the same link: the page mounts afresh and shows the first outcome.
    await act(() => router.navigate('/sign-in'));
    await screen.findByRole('heading', { level: 1, name: 'Sign in' });
    await act(() => router.navigate('/confirm-email?token=tok-1'));
    expect(await screen.findByText('olivia@example.com')).toBeInTheDocument();
    expect(screen.getByText(/is confirmed/)).toBeInTheDocument();

    const confirms = calls.filter((c) => c.path === '/v1/auth/confirm-email');
    expect(confirms).toHaveLength(1);
    expect(confirms[0]?.body).toEqual({ token: 'tok-1' });
  });

  it("shows the server's reason when the token cannot be used", async () => {
    fakeServer({ 'POST /v1/auth/confirm-email': () => problem(410, 'gone', 'This link has expired. Ask for a new one.') });
    renderApp('/confirm-email?token=old');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has expired. Ask for a new one.');
  });

  it('says so when the link has no token, without asking the server', async () => {
    const calls = fakeServer({});
    renderApp('/transfer-ownership');
    expect(await screen.findByRole('alert')).toHaveTextContent('This link has no transfer token.');
    act(() => setTokens({ accessToken: 'a', refreshToken: 'r' }));
    await waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0));
  });

  it('waits until the person signs in before using an invitation', async () => {
    const calls = fakeServer({});
    renderApp('/invite?inviteToken=tok-9');
    await screen.findByRole('heading', { level: 1, name: 'Join a team' });
    expect(screen.getByText(/You have been invited/)).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/v1/team/accept-invite')).toHaveLength(0);
  });
});

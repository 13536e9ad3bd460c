import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, emptyMeta, fakeMember, fakeServer, ok, serverInfo } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const SENT = /we (have )?sent|we e-mail/i;

async function askForReset(address = 'olivia@example.com') {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('E-mail'), address);
  await user.click(screen.getByRole('button', { name: /reset link/ }));
}

describe('forgot password', () => {
  it('on a server without an e-mail relay, says the link went to the server log', async () => {
    fakeServer({ ...serverInfo('outbox'), 'POST /v1/auth/password-reset/request': () => ok({ message: 'If an account uses this e-mail, we have sent it a link to reset the password.' }) });
    renderApp('/forgot-password');
    expect(await screen.findByText(/link to choose a new password is written to the server's log/)).toBeInTheDocument();
    await askForReset();
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent("written to the server's log");
    expect(status).toHaveTextContent('Admin → Outgoing mail');
    expect(status).toHaveTextContent('betty admin mail list');
    expect(status).not.toHaveTextContent(SENT);
  });

  it('with an e-mail relay, keeps the e-mail wording', async () => {
    fakeServer({ ...serverInfo('smtp'), 'POST /v1/auth/password-reset/request': () => ok({ message: 'If an account uses this e-mail, we have sent it a link to reset the password.' }) });
    renderApp('/forgot-password');
    expect(await screen.findByText('We will e-mail you a link to choose a new password.')).toBeInTheDocument();
    await askForReset();
    expect(await screen.findByRole('status')).toHaveTextContent('we have sent it a link');
  });

  it('checks the address with the product rule before asking the server', async () => {
    const calls = fakeServer(serverInfo('smtp'));
    renderApp('/forgot-password');
    await askForReset('olivia@example');
    expect(screen.getByLabelText('E-mail')).toHaveAccessibleDescription('Enter an e-mail address like name@example.com.');
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

describe('in the dashboard, on a server without an e-mail relay', () => {
  function routes() {
    return {
      ...serverInfo('outbox'),
      ...dashboardRoutes(undefined, { emailConfirmed: false }),
      'GET /v1/team/members/list': () => ok([fakeMember({ name: 'Olivia', userId: 'user-1', email: 'olivia@example.com', role: 'owner' })], { meta: { ...emptyMeta, totalSize: 1, start: 1, end: 1, totalPages: 1 } }),
      'POST /v1/team/invite': () => ok(fakeMember({ email: 'ivan@example.com', status: 'invited', joinedAt: null, userId: null }), {}, 201),
      'POST /v1/auth/resend-confirmation': () => ok({ message: 'We have sent you a new confirmation link.' }),
    };
  }

  it('shows no reminder to confirm the e-mail: nothing requires it', { timeout: 30_000 }, async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/members?teamId=t1');
    // The first test here also loads the page's lazy chunks: slow on a busy machine.
    expect(await screen.findByRole('button', { name: 'Invite member' }, { timeout: 25_000 })).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/v1/server/info')).toBe(true);
    expect(screen.queryByText(/Please confirm/)).not.toBeInTheDocument();
  });

  it('inviting says the link went to the server log, not that an e-mail was sent', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/members?teamId=t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Invite member' }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite a member' });
    expect(dialog).toHaveTextContent("written to the server's log");
    expect(dialog).not.toHaveTextContent(SENT);
    await user.type(within(dialog).getByLabelText('E-mail'), 'ivan@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create invitation' }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent("Created an invitation to ivan@example.com. Its link is in the server's log");
    expect(toast).not.toHaveTextContent(SENT);
    expect(calls.find((c) => c.path === '/v1/team/invite')?.body).toEqual({ email: 'ivan@example.com', organizationId: 't1', role: 'member' });
  });
});

describe('in the dashboard, on a server with an e-mail relay', () => {
  it('reminds an unconfirmed user to confirm, and the reminder can be dismissed for good', async () => {
    localStorage.clear();
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      ...serverInfo('smtp'),
      ...dashboardRoutes(undefined, { emailConfirmed: false }),
      'GET /v1/team/members/list': () => ok([fakeMember({ name: 'Olivia', userId: 'user-1', email: 'olivia@example.com', role: 'owner' })], { meta: { ...emptyMeta, totalSize: 1, start: 1, end: 1, totalPages: 1 } }),
    });
    const first = renderApp('/dashboard/members?teamId=t1');
    const banner = (await screen.findByText(/Please confirm/)).closest('[role="status"]') as HTMLElement;
    expect(banner).toHaveTextContent('we sent you a link');
    expect(within(banner).getByRole('button', { name: 'Send the link again' })).toBeInTheDocument();
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Dismiss the reminder to confirm your e-mail' }));
    expect(screen.queryByText(/Please confirm/)).not.toBeInTheDocument();
    first.unmount();
    renderApp('/dashboard/members?teamId=t1');
    expect(await screen.findByRole('button', { name: 'Invite member' })).toBeInTheDocument();
    expect(screen.queryByText(/Please confirm/)).not.toBeInTheDocument();
  });
});

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { formatDate } from '../../lib/dates';
import { dashboardRoutes, fakeApiKey, fakeMember, fakeServer, fakeTeam, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

const OWNER = fakeMember({ id: 'm0', userId: 'user-1', email: 'olivia@example.com', name: 'Olivia', role: 'owner', invitedAt: null, joinedAt: '2026-01-01T09:00:00Z' });
const DEV = fakeMember({ id: 'm1', userId: 'u-dev', email: 'dev@example.com', name: 'Dev', role: 'developer', invitedAt: '2026-01-05T09:00:00Z', joinedAt: '2026-01-06T09:00:00Z' });
const INVITED = fakeMember({ id: 'm2', userId: null, email: 'new@example.com', status: 'invited', invitedAt: '2026-02-10T09:00:00Z', joinedAt: null });

function routes(role = 'owner', members = [OWNER, DEV, INVITED]) {
  let list = members;
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/team/members/list': () => ok(list, { meta: pageMeta(1, list.length, 10) }),
    'GET /v1/team/api-keys': () =>
      ok([
        fakeApiKey({ id: 'k1', name: 'CI', createdBy: { id: 'u-dev', email: 'dev@example.com', name: 'Dev', avatarUrl: null }, createdByStatus: 'active' }),
        fakeApiKey({ id: 'k2', name: 'Zapier', createdBy: { id: 'u-dev', email: 'dev@example.com', name: 'Dev', avatarUrl: null }, createdByStatus: 'active' }),
        fakeApiKey({ id: 'k3', name: 'Mine', createdBy: { id: 'user-1', email: 'olivia@example.com', name: 'Olivia', avatarUrl: null }, createdByStatus: 'active' }),
      ]),
    'DELETE /v1/team/member': ({ url }: { url: URL }) => {
      list = list.filter((m) => m.email !== url.searchParams.get('email'));
      return ok({ id: 'm1', revokedApiKeys: url.searchParams.get('keepApiKeys') === 'true' ? 0 : 2 });
    },
  };
}

describe('members: the Joined column', () => {
  it('shows when active members joined and when the others were invited', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    renderApp('/dashboard/members?teamId=t1');
    const dev = (await screen.findByText('dev@example.com')).closest('tr')!;
    expect(dev).toHaveTextContent(formatDate('2026-01-06T09:00:00Z'));
    expect(dev).not.toHaveTextContent(formatDate('2026-01-05T09:00:00Z'));
    const invited = screen.getByText('new@example.com').closest('tr')!;
    expect(invited).toHaveTextContent(`Invited ${formatDate('2026-02-10T09:00:00Z')}`);
  });
});

describe('removing a member', () => {
  async function openRemove(name: string) {
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
    await user.click(await screen.findByRole('menuitem', { name: 'Remove from team' }));
    return { user, dialog: await screen.findByRole('alertdialog') };
  }

  it('offers to revoke the API keys they made, checked, and says how many were revoked', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/members?teamId=t1');
    const { user, dialog } = await openRemove('Dev');
    const revoke = await within(dialog).findByRole('checkbox', { name: 'Also revoke their 2 API keys (recommended)' });
    expect(revoke).toBeChecked();
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    expect(await screen.findByTestId('toast')).toHaveTextContent('Dev was removed. 2 API keys were revoked.');
    const removal = calls.find((c) => c.method === 'DELETE')!.url.searchParams;
    expect(removal.get('email')).toBe('dev@example.com');
    expect(removal.get('keepApiKeys')).toBeNull();
    await waitFor(() => expect(screen.queryByText('dev@example.com')).not.toBeInTheDocument());
  });

  it('keeps the keys when asked to', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    renderApp('/dashboard/members?teamId=t1');
    const { user, dialog } = await openRemove('Dev');
    await user.click(await within(dialog).findByRole('checkbox', { name: /Also revoke their 2 API keys/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Remove member' }));
    const toast = await screen.findByTestId('toast');
    expect(toast).toHaveTextContent('Dev was removed.');
    expect(toast).not.toHaveTextContent('revoked');
    expect(calls.find((c) => c.method === 'DELETE')!.url.searchParams.get('keepApiKeys')).toBe('true');
  });

  it('asks about keys without a count when the viewer may not list them', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const member = fakeMember({ id: 'm9', userId: 'user-1', email: 'olivia@example.com', name: 'Olivia', role: 'member' });
    const calls = fakeServer(routes('member', [member]));
    renderApp('/dashboard/members?teamId=t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for Olivia' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Leave team' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave Acme?' });
    expect(within(dialog).getByRole('checkbox', { name: 'Also revoke the API keys you made (recommended)' })).toBeChecked();
    expect(calls.some((c) => c.path === '/v1/team/api-keys')).toBe(false);
  });

  it('offers no key choice when cancelling an invitation', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes());
    renderApp('/dashboard/members?teamId=t1');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Actions for new@example.com' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Cancel invitation' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Cancel the invitation to new@example.com?' });
    expect(within(dialog).queryByRole('checkbox')).not.toBeInTheDocument();
  });
});

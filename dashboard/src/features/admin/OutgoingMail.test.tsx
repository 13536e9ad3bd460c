import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, emptyMeta, fakeServer, ok, pageMeta, serverInfo } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

function message(i: number, overrides: Record<string, unknown> = {}) {
  return {
    id: `mail-${i}`,
    recipient: `person${i}@example.com`,
    subject: 'Confirm your e-mail',
    kind: 'confirm-email',
    text: 'Open the link.',
    link: `http://betty.test/confirm-email?token=tok-${i}`,
    status: 'kept',
    attempts: 0,
    error: null,
    createdAt: '2026-02-03T10:00:00Z',
    sentAt: null,
    ...overrides,
  };
}

function adminRoutes(total = 45) {
  return {
    ...serverInfo('outbox'),
    ...dashboardRoutes(undefined, { isSiteAdmin: true }),
    'GET /v1/admin/organization/users-organizations': () => ok([], { meta: emptyMeta }),
    'GET /v1/admin/mail': ({ url }: { url: URL }) => {
      const recipient = url.searchParams.get('recipient');
      const size = Number(url.searchParams.get('sizePerPage'));
      const page = Number(url.searchParams.get('page'));
      if (recipient) return ok([message(7, { recipient, kind: 'invitation', subject: 'Join Acme', link: 'http://betty.test/invite?inviteToken=abc' })], { meta: pageMeta(1, 1, size) });
      const rows = Array.from({ length: Math.min(size, total - (page - 1) * size) }, (_, i) => message((page - 1) * size + i + 1));
      return ok(rows, { meta: pageMeta(page, total, size) });
    },
  };
}

describe('outgoing mail on the site-admin page', () => {
  it('lists what the server wrote, 20 a page, with each link to copy', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(adminRoutes());
    const { router } = renderApp('/admin');
    const section = await screen.findByRole('region', { name: 'Outgoing mail' });
    const table = await within(section).findByRole('table', { name: 'Outgoing mail' });
    expect(within(table).getAllByRole('row')).toHaveLength(21);
    const first = within(table).getByText('person1@example.com').closest('tr')!;
    expect(first).toHaveTextContent('E-mail confirmation');
    expect(first).toHaveTextContent('Kept');
    expect(within(first).getByText('http://betty.test/confirm-email?token=tok-1')).toBeInTheDocument();
    // Copied, never opened: opening an invitation here would accept it as the admin.
    expect(within(first).queryByRole('link')).not.toBeInTheDocument();
    expect(within(first).getByRole('button', { name: 'Copy the e-mail confirmation link for person1@example.com' })).toBeInTheDocument();
    expect(section).toHaveTextContent('Showing 1 - 20 of 45');
    expect(section).toHaveTextContent("no e-mail relay configured");

    await userEvent.setup().click(within(section).getByRole('button', { name: 'Next' }));
    await within(section).findByText('person21@example.com');
    expect(new URLSearchParams(router.state.location.search).get('mailPage')).toBe('2');
    const asked = calls.filter((c) => c.path === '/v1/admin/mail').at(-1)!.url.searchParams;
    expect(asked.get('page')).toBe('2');
    expect(asked.get('sizePerPage')).toBe('20');
  });

  it('filters by recipient, checking the address first', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(adminRoutes());
    const { router } = renderApp('/admin?mailPage=2');
    const section = await screen.findByRole('region', { name: 'Outgoing mail' });
    await within(section).findByText('person21@example.com');
    const user = userEvent.setup();
    const field = within(section).getByLabelText('Recipient');
    await user.type(field, 'ivan@');
    await user.click(within(section).getByRole('button', { name: 'Filter' }));
    expect(field).toHaveAccessibleDescription('Enter an e-mail address like name@example.com.');
    await user.type(field, 'example.com');
    await user.click(within(section).getByRole('button', { name: 'Filter' }));
    await within(section).findByText('ivan@example.com');
    expect(section).toHaveTextContent('Invitation');
    const search = new URLSearchParams(router.state.location.search);
    expect(search.get('recipient')).toBe('ivan@example.com');
    expect(search.get('mailPage')).toBeNull();
    await waitFor(() => expect(calls.filter((c) => c.path === '/v1/admin/mail').at(-1)!.url.searchParams.get('recipient')).toBe('ivan@example.com'));
    expect(calls.filter((c) => c.path === '/v1/admin/mail').some((c) => c.url.searchParams.get('recipient') === 'ivan@')).toBe(false);
  });
});

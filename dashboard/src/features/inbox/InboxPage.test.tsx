import { act, configure, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { clearTokens, setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, pageMeta, problem } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

configure({ asyncUtilTimeout: 10_000 });

// Radix Select asks for pointer capture and scrolls its options into view; jsdom has neither.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});

const item = (o: Record<string, unknown> = {}) => ({
  id: 'i1',
  organizationId: 't1',
  title: 'Customer asked to reschedule delivery',
  summary: 'Wants Friday instead of Monday.',
  priority: 50,
  visibility: 'private',
  deleted: false,
  deletedAt: null,
  callLogId: 'c1',
  callControlId: 'cc1',
  campaignId: null,
  createdAt: '2026-03-30T10:04:00Z',
  updatedAt: '2026-03-30T10:04:00Z',
  ...o,
});

function routes(role = 'owner') {
  let current = item();
  return {
    ...dashboardRoutes([fakeTeam('t1', 'Acme', role)]),
    'GET /v1/inbox': () => ok([current, item({ id: 'i2', title: 'Left a voicemail', priority: 0 })], { meta: pageMeta(1, 2, 10) }),
    'GET /v1/inbox/search': ({ url }: { url: URL }) => ok(url.searchParams.get('query') === 'friday' ? [current] : [], { meta: pageMeta(1, url.searchParams.get('query') === 'friday' ? 1 : 0, 10) }),
    'GET /v1/inbox/private/i1': () => ok(current),
    'POST /v1/inbox/item/i1': ({ body }: { body: unknown }) => {
      current = { ...current, ...(body as Record<string, unknown>) };
      return ok(current);
    },
    'DELETE /v1/inbox/item/i1': () => ok({ id: 'i1' }),
  };
}

describe('the inbox', { timeout: 30_000 }, () => {
  it('lists items with priority and visibility, and searches 500 ms after typing stops, once', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    const { router } = renderApp('/dashboard/inbox?teamId=t1');
    const row = await screen.findByTestId('inbox-row-i1');
    expect(row).toHaveTextContent('High');
    expect(row).toHaveTextContent('Private');
    expect(screen.getByTestId('inbox-row-i2')).toHaveTextContent('Low');

    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const box = screen.getByRole('searchbox', { name: 'Search the inbox' });
      for (const text of ['f', 'fr', 'fri', 'frid', 'frida', 'friday']) fireEvent.change(box, { target: { value: text } });
      await act(async () => {
        await vi.advanceTimersByTimeAsync(400);
      });
      expect(calls.filter((c) => c.path === '/v1/inbox/search')).toHaveLength(0);
      await act(async () => {
        await vi.advanceTimersByTimeAsync(200);
      });
    } finally {
      vi.useRealTimers();
    }
    await screen.findByText('Customer asked to reschedule delivery');
    expect(router.state.location.search).toContain('searchQuery=friday');
    const searches = calls.filter((c) => c.path === '/v1/inbox/search');
    expect(searches.map((c) => c.url.searchParams.get('query'))).toEqual(['friday']);
    expect(screen.queryByTestId('inbox-row-i2')).not.toBeInTheDocument();
  });

  it('opens an item, changes its priority and visibility, shows the share link, and deletes it', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer(routes());
    const { router } = renderApp('/dashboard/inbox?teamId=t1&inboxId=i1');
    const summary = await screen.findByTestId('inbox-summary');
    expect(summary).toHaveTextContent('Wants Friday instead of Monday.');
    expect(screen.getByRole('link', { name: /Open the call/ })).toHaveAttribute('href', '/dashboard/calls?callLogId=c1&teamId=t1');
    expect(screen.queryByTestId('inbox-public-link')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Public' }));
    expect(await screen.findByTestId('inbox-public-link')).toHaveTextContent('/inbox?inboxId=i1&organizationId=t1');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ organizationId: 't1', visibility: 'public' });
    expect(screen.getByRole('button', { name: 'Public' })).toHaveAttribute('aria-pressed', 'true');

    await userEvent.click(screen.getByRole('combobox', { name: 'Priority' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Urgent' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST').at(-1)!.body).toEqual({ organizationId: 't1', priority: 100 }));

    await userEvent.click(screen.getByRole('button', { name: 'Delete item' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(router.state.location.search).not.toContain('inboxId'));
    expect(calls.some((c) => c.method === 'DELETE' && c.path === '/v1/inbox/item/i1' && c.url.searchParams.get('organizationId') === 't1')).toBe(true);
  });

  it('gives read-only members no controls', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer(routes('readonly'));
    renderApp('/dashboard/inbox?teamId=t1&inboxId=i1');
    await screen.findByTestId('inbox-summary');
    expect(screen.queryByRole('button', { name: 'Delete item' })).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox', { name: 'Priority' })).not.toBeInTheDocument();
  });
});

describe('the public inbox page', { timeout: 30_000 }, () => {
  it('shows a public item without signing in, and the same words for a private or missing one', async () => {
    clearTokens();
    const calls = fakeServer({
      'GET /v1/inbox/public/i1': () => ok(item({ visibility: 'public' })),
      'GET /v1/inbox/public/i9': () => problem(404, 'not_found', 'Not found'),
    });
    const view = renderApp('/inbox?inboxId=i1&organizationId=t1');
    expect(await screen.findByTestId('public-inbox-summary')).toHaveTextContent('Wants Friday instead of Monday.');
    expect(screen.getByRole('heading', { name: 'Customer asked to reschedule delivery' })).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/v1/inbox/public/i1')!.headers.get('Authorization')).toBeNull();
    view.unmount();
    renderApp('/inbox?inboxId=i9&organizationId=t1');
    expect(await screen.findByText('Nothing to show here')).toBeInTheDocument();
  });
});

import { configure, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, it, vi } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeServer, fakeTeam, ok, pageMeta } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';
import { widgetSnippet } from './queries';

configure({ asyncUtilTimeout: 30_000 });

// Radix Select asks for pointer capture and scrolls its options into view; jsdom has neither.
beforeAll(() => {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => {};
  Element.prototype.scrollIntoView ??= () => {};
});

const workflow = (id: string, name: string, shopifyEnabled = false) => ({ id, name, shopifyEnabled, organizationId: 't1', workflowType: 'outbound' });

describe('the Shopify setup page', { timeout: 60_000 }, () => {
  it('builds the snippet from the server address and the team’s publishable key', () => {
    expect(widgetSnippet('https://betty.example', 'betty_pk_x')).toBe('<script src="https://betty.example/widget.js" data-betty-key="betty_pk_x" defer></script>');
  });

  it('shows the snippet, the current storefront workflow, and attaches another one', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const calls = fakeServer({
      ...dashboardRoutes([fakeTeam('t1', 'Acme', 'member')]),
      'GET /v1/workflow/list': () => ok([workflow('w1', 'Renewals', true), workflow('w2', 'Call me back')], { meta: pageMeta(1, 2, 100) }),
      'POST /v1/workflow/config/shopify': () => ok(workflow('w2', 'Call me back', true)),
    });
    renderApp('/dashboard/shopify-setting-setup?teamId=t1');
    expect(await screen.findByTestId('widget-snippet')).toHaveTextContent(`<script src="${window.location.origin}/widget.js" data-betty-key="betty_pk_x" defer></script>`);
    await screen.findByText('Now: Renewals.');
    const list = calls.find((c) => c.path === '/v1/workflow/list')!;
    expect(list.url.searchParams.get('workflowType')).toBe('outbound');

    await userEvent.click(screen.getByRole('combobox', { name: 'Workflow the widget starts' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Call me back' }));
    await userEvent.click(screen.getByRole('button', { name: 'Use this workflow' }));
    await vi.waitFor(() => expect(calls.find((c) => c.path === '/v1/workflow/config/shopify')?.body).toEqual({ organizationId: 't1', workflowId: 'w2' }));
  });

  it('lists the calls shoppers asked for, with the consent and a link to each placed call', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    const consent = { text: 'I agree to be called.', pageUrl: 'https://mugs.example/big-mug', clientIp: '203.0.113.9', givenAt: '2026-03-14T09:26:53Z' };
    const booking = (id: string, phoneNumber: string, call: { callLogId: string | null; callStatus: string | null }, name: string | null = null) => ({
      id, phoneNumber, name, workflowId: 'w1', jobId: `j-${id}`, createdAt: consent.givenAt, consent, ...call,
    });
    const calls = fakeServer({
      ...dashboardRoutes([fakeTeam('t1', 'Acme', 'readonly')]),
      'GET /v1/workflow/list': () => ok([workflow('w1', 'Renewals', true)], { meta: pageMeta(1, 1, 100) }),
      'GET /v1/call/bookings': () =>
        ok([booking('b2', '+442079460142', { callLogId: null, callStatus: null }), booking('b1', '+14155550123', { callLogId: 'c1', callStatus: 'completed' }, 'Grace')], {
          meta: pageMeta(1, 2, 10),
        }),
    });
    renderApp('/dashboard/shopify-setting-setup?teamId=t1');
    const table = await screen.findByRole('table', { name: 'Calls shoppers asked for, newest first' });
    expect(table).toHaveTextContent('+14155550123');
    expect(table).toHaveTextContent('Grace');
    expect(table).toHaveTextContent('Not placed yet');
    expect(table).toHaveTextContent('https://mugs.example/big-mug · 203.0.113.9');
    expect(screen.getByRole('link', { name: /Open the call of \+14155550123/ })).toHaveAttribute('href', expect.stringContaining('/dashboard/calls?callLogId=c1'));
    expect(calls.find((c) => c.path === '/v1/call/bookings')?.url.searchParams.get('organizationId')).toBe('t1');
  });

  it('lets read-only members look but not choose', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...dashboardRoutes([fakeTeam('t1', 'Acme', 'readonly')]), 'GET /v1/workflow/list': () => ok([workflow('w1', 'Renewals', true)], { meta: pageMeta(1, 1, 100) }) });
    renderApp('/dashboard/shopify-setting-setup?teamId=t1');
    await screen.findByText('Now: Renewals.');
    expect(screen.queryByRole('button', { name: 'Use this workflow' })).not.toBeInTheDocument();
  });
});

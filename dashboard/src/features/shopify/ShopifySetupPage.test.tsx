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

  it('lets read-only members look but not choose', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({ ...dashboardRoutes([fakeTeam('t1', 'Acme', 'readonly')]), 'GET /v1/workflow/list': () => ok([workflow('w1', 'Renewals', true)], { meta: pageMeta(1, 1, 100) }) });
    renderApp('/dashboard/shopify-setting-setup?teamId=t1');
    await screen.findByText('Now: Renewals.');
    expect(screen.queryByRole('button', { name: 'Use this workflow' })).not.toBeInTheDocument();
  });
});

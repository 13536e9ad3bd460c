import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { setTokens } from '../../api/session';
import { dashboardRoutes, fakeApiKey, fakeServer, ok } from '../../test/fakeServer';
import { renderApp } from '../../test/renderApp';

describe('API keys follow their maker', () => {
  it('shows who made each key, marks keys whose maker left, and says the rule once', async () => {
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    fakeServer({
      ...dashboardRoutes(),
      'GET /v1/team/api-keys': () =>
        ok([
          fakeApiKey({ id: 'k1', name: 'CI', createdBy: { id: 'u2', email: 'dev@example.com', name: 'Dev', avatarUrl: null }, createdByStatus: 'active' }),
          fakeApiKey({ id: 'k2', name: 'Old sync', createdBy: { id: 'u3', email: 'gone@example.com', name: null, avatarUrl: null }, createdByStatus: 'removed' }),
        ]),
    });
    renderApp('/dashboard/api-keys?teamId=t1');
    const table = await screen.findByRole('table', { name: 'API keys of Acme' });
    const ci = within(table).getByText('CI').closest('tr')!;
    expect(within(ci).getAllByText('Dev').length).toBeGreaterThan(0);
    expect(ci).not.toHaveTextContent('Maker left');
    const old = within(table).getByText('Old sync').closest('tr')!;
    expect(within(old).getAllByText('gone@example.com').length).toBeGreaterThan(0);
    expect(within(old).getAllByText('Maker left').length).toBeGreaterThan(0);
    expect(screen.getByText('A key never does more than the member who made it: demoting them lowers their keys; removing them revokes their keys unless you keep them.')).toBeInTheDocument();
  });
});

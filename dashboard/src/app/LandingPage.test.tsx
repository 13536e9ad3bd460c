import { QueryClient } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { clearTokens, setTokens } from '../api/session';
import { App, routes } from './App';

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  // A fresh cache per test, and no retries so an error shows at once.
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<App router={router} queryClient={queryClient} />);
}

function stubHealth(response: () => Response) {
  const fetchMock = vi.fn(async () => response());
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

describe('landing page', () => {
  it('says what Betty is and links to sign in and sign up', async () => {
    stubHealth(() => Response.json({ status: 200, data: { ok: true, version: '0.1.0', database: 'sqlite' } }));
    renderAt('/');

    expect(await screen.findByRole('heading', { level: 1, name: /ai voice agents/i })).toBeInTheDocument();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: /create an account/i })).toHaveAttribute('href', '/sign-up');
    expect(within(main).getByRole('link', { name: /sign in/i })).toHaveAttribute('href', '/sign-in');
    expect(screen.getByRole('navigation', { name: 'Account' })).toBeInTheDocument();
  });

  it('offers a signed-in visitor the dashboard, not a new account', async () => {
    stubHealth(() => Response.json({ status: 200, data: { ok: true, version: '0.1.0', database: 'sqlite' } }));
    setTokens({ accessToken: 'a', refreshToken: 'r' });
    try {
      renderAt('/');
      const main = await screen.findByRole('main');
      expect(await within(main).findByRole('link', { name: 'Open dashboard' })).toHaveAttribute('href', '/dashboard');
      expect(within(main).queryByRole('link', { name: /create an account/i })).not.toBeInTheDocument();
      expect(within(main).queryByRole('link', { name: /sign in/i })).not.toBeInTheDocument();
    } finally {
      clearTokens();
    }
  });

  it('shows the server status from GET /healthz', async () => {
    const fetchMock = stubHealth(() =>
      Response.json({ status: 200, data: { ok: true, version: '1.2.3', database: 'postgres' } }),
    );
    renderAt('/');

    await waitFor(() => expect(screen.getByTestId('server-status')).toHaveTextContent(/^Server OK/));
    expect(screen.getByTestId('server-status')).toHaveTextContent('Server OK · version 1.2.3 · database postgres', {
      normalizeWhitespace: false,
    });
    expect(fetchMock).toHaveBeenCalledWith('/healthz', expect.objectContaining({ method: 'GET' }));
    const card = screen.getByRole('region', { name: 'Server status' });
    expect(within(card).getByRole('status')).toHaveTextContent('Server OK · version 1.2.3 · database postgres');
  });

  it('shows an error state when the server answers with a problem', async () => {
    stubHealth(() =>
      Response.json(
        { type: '/problems/unavailable', title: 'Service unavailable', status: 503, code: 'unavailable', detail: 'The database is not answering.' },
        { status: 503, headers: { 'Content-Type': 'application/problem+json' } },
      ),
    );
    renderAt('/');

    expect(await screen.findByText('Server error (HTTP 503)')).toBeInTheDocument();
    expect(screen.getByText('The database is not answering.')).toBeInTheDocument();
    expect(screen.queryByText(/Server OK/)).not.toBeInTheDocument();
  });

  it('shows an error state when the server cannot be reached', async () => {
    stubHealth(() => {
      throw new TypeError('Failed to fetch');
    });
    renderAt('/');

    expect(await screen.findByText('Server unreachable')).toBeInTheDocument();
    expect(screen.getByText(/could not reach the betty server/i)).toBeInTheDocument();
  });
});

describe('unknown pages', () => {
  it('shows a not-found page with a way back', async () => {
    stubHealth(() => Response.json({}));
    renderAt('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page not found · Betty'));
    expect(screen.getByRole('link', { name: /go to the start page/i })).toHaveAttribute('href', '/');
  });
});

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StrictMode } from 'react';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { pageMeta } from '../test/fakeServer';
import { pageAfterDelete, pageAfterDuplicate, pageFromParams, usePagedList } from './usePagedList';

const SIZE = 2;

/** A server list of `total()` items that clamps a page past the end to the last, as Betty's does. */
function fakeList(total: () => number) {
  return vi.fn(async (page: number) => {
    const count = total();
    const last = Math.max(1, Math.ceil(count / SIZE));
    const served = Math.min(page, last);
    const data = Array.from({ length: Math.max(0, Math.min(SIZE, count - (served - 1) * SIZE)) }, (_, i) => `item ${(served - 1) * SIZE + i + 1}`);
    return { data, meta: pageMeta(served, count, SIZE) };
  });
}

function List({ fetchPage, param }: { fetchPage: (page: number) => Promise<{ data: string[]; meta: ReturnType<typeof pageMeta> }>; param?: string }) {
  const list = usePagedList((page) => ({ queryKey: ['test-list', page], queryFn: () => fetchPage(page) }), param ? { param } : {});
  if (!list.query.data) return <p>Loading</p>;
  return (
    <div>
      <ul>
        {list.query.data.data.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ul>
      <p data-testid="meta">
        Showing {list.meta?.start} - {list.meta?.end} of {list.meta?.totalSize}, page {list.page}
      </p>
      <button type="button" onClick={() => list.setPage(list.page + 1)}>
        Next
      </button>
      <button type="button" onClick={() => list.afterDelete()}>
        Deleted one
      </button>
    </div>
  );
}

function renderList(path: string, fetchPage: ReturnType<typeof fakeList>, param?: string) {
  const router = createMemoryRouter([{ path: '/list', element: <List fetchPage={fetchPage} {...(param ? { param } : {})} /> }], { initialEntries: [path] });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <StrictMode>
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </StrictMode>,
  );
  return router;
}

describe('pageFromParams', () => {
  it('reads a whole page number from 1, anything else is page 1', () => {
    expect(pageFromParams(new URLSearchParams('page=3'))).toBe(3);
    expect(pageFromParams(new URLSearchParams('mailPage=2'), 'mailPage')).toBe(2);
    for (const bad of ['', 'page=0', 'page=-2', 'page=1.5', 'page=abc']) expect(pageFromParams(new URLSearchParams(bad))).toBe(1);
  });
});

describe('usePagedList', () => {
  it('follows the server when it clamps a page past the end to the last one', async () => {
    const fetchPage = fakeList(() => 5);
    const router = renderList('/list?page=9', fetchPage);
    await screen.findByText('item 5');
    await waitFor(() => expect(router.state.location.search).toBe('?page=3'));
    expect(screen.getByTestId('meta')).toHaveTextContent('Showing 5 - 5 of 5, page 3');
    expect(fetchPage).toHaveBeenCalledWith(9);
  });

  it('keeps the page in the URL, under its own name when a screen has two lists', async () => {
    const fetchPage = fakeList(() => 5);
    const router = renderList('/list?page=7', fetchPage, 'mailPage');
    await screen.findByText('item 1');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('item 3');
    expect(new URLSearchParams(router.state.location.search).get('mailPage')).toBe('2');
    expect(new URLSearchParams(router.state.location.search).get('page')).toBe('7');
  });

  it('moves back a page when the last item of a page above the first is deleted', async () => {
    let total = 5;
    const fetchPage = fakeList(() => total);
    const router = renderList('/list?page=3', fetchPage);
    await screen.findByText('item 5');
    total = 4;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Deleted one' }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    await screen.findByText('item 3');
  });

  it('stays on the page when other items remain on it, and on page 1', async () => {
    const fetchPage = fakeList(() => 4);
    const router = renderList('/list', fetchPage);
    await screen.findByText('item 1');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Deleted one' }));
    expect(router.state.location.search).toBe('');
  });
});

describe('page moves (spec section 4)', () => {
  it('goes back a page when the last item of a page above 1 is deleted', () => {
    expect(pageAfterDelete(3, 1)).toBe(2);
    expect(pageAfterDelete(3, 2)).toBe(3);
    expect(pageAfterDelete(1, 1)).toBe(1);
    expect(pageAfterDelete(2, 3, 3)).toBe(1);
  });

  it('goes forward a page when the last item of a full page is duplicated', () => {
    expect(pageAfterDuplicate(1, 4, 5, 5)).toBe(2);
    expect(pageAfterDuplicate(2, 4, 5, 5)).toBe(3);
    expect(pageAfterDuplicate(1, 3, 5, 5)).toBe(1);
    // The last item of a page that is not full stays: the copy still fits.
    expect(pageAfterDuplicate(2, 2, 3, 5)).toBe(2);
  });
});

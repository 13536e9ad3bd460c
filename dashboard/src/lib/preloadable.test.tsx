import { act, render, screen } from '@testing-library/react';
import { Suspense } from 'react';

import { preloadable } from './preloadable';

const Page = () => <p>the page</p>;

describe('preloadable', () => {
  test('a preloaded chunk renders without showing the fallback', async () => {
    const Lazy = preloadable(() => Promise.resolve({ default: Page }));
    await Lazy.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy />
      </Suspense>,
    );
    // Synchronously, in the first commit: React.lazy alone would show "loading" first.
    expect(screen.getByText('the page')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
  });

  test('a chunk not preloaded suspends as React.lazy does, and loads once', async () => {
    const factory = vi.fn(() => Promise.resolve({ default: Page }));
    const Lazy = preloadable(factory);
    render(
      <Suspense fallback={<p>loading</p>}>
        <Lazy />
      </Suspense>,
    );
    expect(screen.getByText('loading')).toBeInTheDocument();
    await act(() => Lazy.preload());
    expect(await screen.findByText('the page')).toBeInTheDocument();
    expect(factory).toHaveBeenCalledTimes(1);
  });
});

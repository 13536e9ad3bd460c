import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * React.lazy for a page chunk that may be fetched ahead of its route (`preload()`, e.g. at
 * start-up for the page the address names). Once the chunk has loaded, rendering it does not
 * suspend: React.lazy alone suspends at least once even then (the import's promise settles a
 * tick later), which shows the Suspense fallback and makes React hold the page back for its
 * 300 ms throttle on revealing a boundary.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React.lazy's own constraint
export function preloadable<T extends ComponentType<any>>(factory: () => Promise<{ default: T }>): LazyExoticComponent<T> & { preload: () => Promise<{ default: T }> } {
  let loaded: { default: T } | undefined;
  let pending: Promise<{ default: T }> | undefined;
  const preload = () =>
    (pending ??= factory().then(
      (m) => (loaded = m),
      (e: unknown) => {
        pending = undefined; // a failed fetch may be preloaded again
        throw e;
      },
    ));
  // A thenable that calls back at once: React.lazy reads a loaded module in the same render.
  const now = (m: { default: T }) => ({ then: (resolve: (m: { default: T }) => void) => resolve(m) }) as unknown as Promise<{ default: T }>;
  return Object.assign(
    lazy(() => (loaded ? now(loaded) : preload())),
    { preload },
  );
}

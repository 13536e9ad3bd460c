import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy } from 'react';
import { RouterProvider, type DataRouter, type RouteObject } from 'react-router';

import { AppLayout } from './components/AppLayout';
import { queryClient as defaultQueryClient } from './lib/queryClient';

// Each page is its own chunk, fetched when its route is first visited.
const LandingPage = lazy(() => import('./pages/LandingPage'));
const PlaceholderPage = lazy(() => import('./pages/PlaceholderPage'));
const NotFoundPage = lazy(() => import('./pages/NotFoundPage'));

export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      { index: true, element: <LandingPage /> },
      {
        path: 'sign-in',
        element: <PlaceholderPage title="Sign in" description="Signing in to the dashboard is on its way." />,
      },
      {
        path: 'sign-up',
        element: <PlaceholderPage title="Create an account" description="Creating an account from the dashboard is on its way." />,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

interface AppProps {
  router: DataRouter;
  /** Tests pass their own; the app uses the one made at start-up. */
  queryClient?: QueryClient;
}

export function App({ router, queryClient = defaultQueryClient }: AppProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>
  );
}

// A workflow opened by its address (/dashboard/workflow-canvas?workflowId=…): the canvas chunk
// and the workflow's graph are fetched while the dashboard's shell loads, not once the route has
// rendered, and the canvas then renders without suspending (see preloadable).

import type { QueryClient } from '@tanstack/react-query';

import { getTokens } from '../../api/session';
import { preloadable } from '../../lib/preloadable';
import { workflowQueryOptions } from './queries';

// The canvas (React Flow, dagre) is its own chunk, fetched only when a workflow is opened.
export const CanvasPage = preloadable(() => import('./canvas/CanvasPage'));

export function preloadOpenedWorkflow(queryClient: QueryClient, workflowId: string): void {
  void CanvasPage.preload();
  // Signed out, the page goes to sign-in; the canvas fetches the workflow once it is shown.
  if (!workflowId || getTokens() === null) return;
  void queryClient.prefetchQuery(workflowQueryOptions(workflowId));
}

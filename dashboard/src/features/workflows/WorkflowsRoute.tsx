import { useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect } from 'react';
import { useSearchParams } from 'react-router';

import { CanvasPage } from './preload';
import { workflowQueryOptions } from './queries';

const WorkflowsPage = lazy(() => import('./WorkflowsPage'));

/** /dashboard/workflow-canvas: the list, or with ?workflowId= the canvas of that workflow. */
export default function WorkflowsRoute() {
  const [params] = useSearchParams();
  const queryClient = useQueryClient();
  const workflowId = params.get('workflowId');
  // Fetch the workflow while the canvas chunk downloads, not after.
  useEffect(() => {
    if (workflowId) void queryClient.prefetchQuery(workflowQueryOptions(workflowId));
  }, [queryClient, workflowId]);
  return workflowId ? <CanvasPage /> : <WorkflowsPage />;
}

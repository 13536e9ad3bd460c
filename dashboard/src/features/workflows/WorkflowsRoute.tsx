import { lazy } from 'react';
import { useSearchParams } from 'react-router';

// The canvas (React Flow, dagre) is its own chunk, fetched only when a workflow is opened.
const CanvasPage = lazy(() => import('./canvas/CanvasPage'));
const WorkflowsPage = lazy(() => import('./WorkflowsPage'));

/** /dashboard/workflow-canvas: the list, or with ?workflowId= the canvas of that workflow. */
export default function WorkflowsRoute() {
  const [params] = useSearchParams();
  return params.get('workflowId') ? <CanvasPage /> : <WorkflowsPage />;
}

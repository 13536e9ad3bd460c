import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';

import type { CallLog, RunActivity } from '../../../../api/gen/model';
import { publishEvent } from '../../../../lib/events';
import { fakeServer, ok } from '../../../../test/fakeServer';
import { RunOverlayProvider, StepActivity, useEdgeOnPath, useOnPath } from './RunOverlay';

function Card({ id }: { id: string }) {
  const onPath = useOnPath(id);
  return (
    <div data-testid={`card-${id}`} data-on-path={onPath || undefined}>
      <StepActivity nodeId={id} />
    </div>
  );
}

function Edge({ source, target }: { source: string; target: string }) {
  return <span data-testid={`edge-${source}-${target}`} data-on-path={useEdgeOnPath(source, target) || undefined} />;
}

function canvas() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <RunOverlayProvider workflowId="wf1">
        {['A', 'B', 'C'].map((id) => (
          <Card key={id} id={id} />
        ))}
        <Edge source="A" target="B" />
        <Edge source="B" target="C" />
      </RunOverlayProvider>
    </QueryClientProvider>,
  );
}

const call = (path: string[], at: string, over: Partial<CallLog> = {}) =>
  ({ id: 'c1', workflowId: 'wf1', jobId: 'job1', direction: 'outbound', endTime: null, updatedAt: at, path, currentNodeId: path.at(-1) ?? null, ...over }) as CallLog;

/** The activity was read and its answer applied. */
async function settled(seen: unknown[]) {
  await waitFor(() => expect(seen.length).toBe(1));
  await act(() => new Promise((r) => setTimeout(r, 20)));
}

const send = (c: CallLog) => act(() => publishEvent({ id: '1', event: 'call.updated', data: JSON.stringify(c) }));

describe('the run overlay', () => {
  test('seeds from the run activity, then follows the call on the stream', async () => {
    const activity: RunActivity = {
      jobId: 'job1',
      inProgress: true,
      isTest: false,
      asOf: '2026-12-07T10:00:00Z',
      steps: [
        { nodeId: 'A', now: 0, passed: 3 },
        { nodeId: 'B', now: 1, passed: 0 },
      ],
      calls: [{ callLogId: 'c1', currentNodeId: 'B', path: ['A', 'B'], updatedAt: '2026-12-07T09:59:59Z' }],
    };
    fakeServer({ 'GET /v1/workflow/run-activity/wf1': () => ok(activity) });
    canvas();
    await waitFor(() => expect(screen.getByTestId('activity-B')).toHaveTextContent('1 on call'));
    expect(screen.getByTestId('activity-A')).toHaveTextContent('3 passed');
    expect(screen.queryByTestId('activity-C')).toBeNull();
    send(call(['A', 'B', 'C'], '2026-12-07T10:00:01Z'));
    expect(screen.getByTestId('activity-C')).toHaveTextContent('1 on call');
    expect(screen.getByTestId('activity-B')).toHaveTextContent('1 passed');
    expect(screen.queryByTestId('activity-now-B')).toBeNull();
    // Not a test run: no path is highlighted.
    expect(screen.getByTestId('card-B')).not.toHaveAttribute('data-on-path');
  });

  test("highlights a test run's path on its steps and edges", async () => {
    const seen = fakeServer({
      'GET /v1/workflow/run-activity/wf1': () => ok({ jobId: 'job2', inProgress: true, isTest: true, asOf: '2026-12-07T10:00:00Z', steps: [], calls: [] } satisfies RunActivity),
    });
    canvas();
    await settled(seen);
    // The test call names no job.
    send(call(['A', 'B'], '2026-12-07T10:00:02Z', { jobId: null }));
    expect(screen.getByTestId('card-B')).toHaveAttribute('data-on-path', 'true');
    expect(screen.getByTestId('activity-A')).toHaveTextContent('1 passed');
    expect(screen.getByTestId('card-A')).toHaveAttribute('data-on-path', 'true');
    expect(screen.getByTestId('card-C')).not.toHaveAttribute('data-on-path');
    expect(screen.getByTestId('edge-A-B')).toHaveAttribute('data-on-path', 'true');
    expect(screen.getByTestId('edge-B-C')).not.toHaveAttribute('data-on-path');
  });

  test('shows nothing of a run that had ended before the canvas opened', async () => {
    const seen = fakeServer({
      'GET /v1/workflow/run-activity/wf1': () => ok({ jobId: 'job0', inProgress: false, isTest: false, asOf: '2026-12-07T10:00:00Z', steps: [{ nodeId: 'A', now: 0, passed: 5 }], calls: [] } satisfies RunActivity),
    });
    canvas();
    await settled(seen);
    expect(screen.queryByTestId('activity-A')).toBeNull();
  });

  test('a new run seen first as ended (a simulated test call can finish before its start reaches the page) is read and shown', async () => {
    let activity: RunActivity = { jobId: 'job0', inProgress: false, isTest: false, asOf: '2026-12-07T10:00:00Z', steps: [{ nodeId: 'A', now: 0, passed: 5 }], calls: [] };
    const seen = fakeServer({ 'GET /v1/workflow/run-activity/wf1': () => ok(activity) });
    canvas();
    await settled(seen);
    expect(screen.queryByTestId('activity-A')).toBeNull();
    activity = { jobId: 'job3', inProgress: false, isTest: true, asOf: '2026-12-07T10:01:00Z', steps: [{ nodeId: 'A', now: 0, passed: 1 }, { nodeId: 'B', now: 0, passed: 1 }], calls: [{ callLogId: 'c9', currentNodeId: null, path: ['A', 'B'], updatedAt: '2026-12-07T10:00:59Z' }] };
    act(() => publishEvent({ id: '2', event: 'job.updated', data: JSON.stringify({ id: 'job3', workflowId: 'wf1', type: 'workflow-run', status: 'success' }) }));
    await waitFor(() => expect(screen.getByTestId('activity-B')).toHaveTextContent('1 passed'));
    expect(screen.getByTestId('card-B')).toHaveAttribute('data-on-path', 'true');
  });
});

// A run you can watch on the canvas: for the open workflow, its run in progress (a job over its
// contacts or a test run) is found and seeded from the server's run activity, then followed on
// the live event stream. Cards show how many calls are on them now and have passed through
// (StepActivity); a test run's path is highlighted (useOnPath, useEdgeOnPath). A run that
// started while the page was open stays shown once it ended, until the next one; a run that had
// ended before is not shown.
//
// The state lives in a small store read with useSyncExternalStore and per-step selectors, so
// an event re-renders only the cards whose numbers changed (a 300-step canvas stays smooth).

import { useQuery, useQueryClient } from '@tanstack/react-query';
import { createContext, useContext, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';

import type { CallLog, Job } from '../../../../api/gen/model';
import { getGetWorkflowRunActivityQueryKey, getWorkflowRunActivity } from '../../../../api/gen/workflows/workflows';
import { cn } from '../../../../lib/cn';
import { subscribeEvents, usePollInterval } from '../../../../lib/events';
import { applyCall, EMPTY_OVERLAY, seedOverlay, stepCounts, testPath, type Overlay, type StepTally } from './overlay';

interface View {
  /** Counts are shown: a run is in progress, or ran while the page was open. */
  live: boolean;
  counts: Map<string, StepTally>;
  /** A test run's path, shown with the counts. */
  pathNodes: Set<string>;
  pathEdges: Set<string>;
}

const NO_VIEW: View = { live: false, counts: new Map(), pathNodes: new Set(), pathEdges: new Set() };

class OverlayStore {
  overlay: Overlay = EMPTY_OVERLAY;
  /** The run that had ended already when the page opened (undefined until the first seed): not shown. Any later run is, to its end and after. */
  before: string | null | undefined = undefined;
  view: View = NO_VIEW;
  private listeners = new Set<() => void>();

  subscribe = (l: () => void) => {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  };

  /** The overlay as the server's run activity says it is now. */
  seed(o: Overlay) {
    if (this.before === undefined) this.before = o.inProgress ? null : o.jobId;
    this.set(o);
  }

  set(o: Overlay) {
    if (o === this.overlay) return;
    this.overlay = o;
    // A run in progress, or one that ran while the page was open (it may end within a second
    // on the simulator): its counts and a test run's path stay shown until the next run.
    const shown = o.jobId !== null && (o.inProgress || o.jobId !== this.before);
    const path = shown ? testPath(o) : { nodes: new Set<string>(), edges: new Set<string>() };
    this.view = { live: shown, counts: shown ? stepCounts(o) : new Map(), pathNodes: path.nodes, pathEdges: path.edges };
    for (const l of this.listeners) l();
  }
}

const StoreContext = createContext<OverlayStore | null>(null);

/** Around the canvas of one workflow: finds its run, seeds the counts and follows the stream. */
export function RunOverlayProvider({ workflowId, children }: { workflowId: string; children: ReactNode }) {
  const [store] = useState(() => new OverlayStore());
  const queryClient = useQueryClient();
  const poll = usePollInterval('jobs');
  const key = getGetWorkflowRunActivityQueryKey(workflowId);
  const activity = useQuery({
    queryKey: key,
    queryFn: async ({ signal }) => (await getWorkflowRunActivity(workflowId, { signal })).data,
    // Without the stream, the counts are read again at the jobs' interval while a run goes on.
    refetchInterval: (q) => (q.state.data?.inProgress ? poll : false),
  });

  useEffect(() => {
    if (activity.data) store.seed(seedOverlay(activity.data));
  }, [activity.data, store]);

  useEffect(
    () =>
      subscribeEvents((event) => {
        if (event.event === 'reset') {
          void queryClient.invalidateQueries({ queryKey: key });
          return;
        }
        if (event.event !== 'call.updated' && event.event !== 'job.updated') return;
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          return;
        }
        if (event.event === 'call.updated') {
          store.set(applyCall(store.overlay, workflowId, data as CallLog));
          return;
        }
        // A new run (whatever its first event says: a simulated test run can end before its
        // "in progress" reaches the page, or the two are coalesced), or the shown run started or
        // ended: read where its calls stand again.
        const job = data as Job;
        const o = store.overlay;
        if (job.workflowId === workflowId && job.type === 'workflow-run' && (job.id !== o.jobId || (job.status === 'in-progress') !== o.inProgress)) {
          void queryClient.invalidateQueries({ queryKey: key });
        }
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [workflowId, store, queryClient],
  );

  return <StoreContext.Provider value={store}>{children}</StoreContext.Provider>;
}

const noStore = { subscribe: () => () => undefined, view: NO_VIEW };

function useView<T>(select: (v: View) => T): T {
  const store = useContext(StoreContext) ?? noStore;
  return useSyncExternalStore(store.subscribe, () => select(store.view));
}

/** Whether a test run's call has been on this step. */
export function useOnPath(nodeId: string): boolean {
  return useView((v) => v.pathNodes.has(nodeId));
}

/** Whether a test run's call went along this edge. */
export function useEdgeOnPath(source: string, target: string): boolean {
  return useView((v) => v.pathEdges.has(`${source}>${target}`));
}

/** The calls on a step now and passed through it; null when no run is shown or none reached it. */
export function useStepTally(nodeId: string): StepTally | null {
  const now = useView((v) => (v.live ? (v.counts.get(nodeId)?.now ?? 0) : -1));
  const passed = useView((v) => v.counts.get(nodeId)?.passed ?? 0);
  return useMemo(() => (now < 0 || (now === 0 && passed === 0) ? null : { now, passed }), [now, passed]);
}

/**
 * The badge at a card's top right while a run is shown: "2 on call" with a pulsing dot, "14
 * passed". Nothing when no run is shown or no call reached the step. `large`: for the light cards
 * drawn when zoomed far out, so it reads at that zoom.
 */
export function StepActivity({ nodeId, large = false }: { nodeId: string; large?: boolean }) {
  const t = useStepTally(nodeId);
  if (!t) return null;
  const label = [t.now > 0 ? `${t.now} ${t.now === 1 ? 'call' : 'calls'} on this step now` : '', t.passed > 0 ? `${t.passed} passed through` : ''].filter(Boolean).join(', ');
  return (
    <div data-testid={`activity-${nodeId}`} title={label} className={cn('pointer-events-none absolute right-0 z-10 flex items-center rounded-full whitespace-nowrap border border-line bg-surface font-medium text-fg shadow-sm', large ? 'bottom-full mb-3 gap-4 border-4 px-6 py-2 text-4xl' : 'bottom-full mb-1 gap-1.5 px-2 py-0.5 text-sm')}>
      {t.now > 0 && (
        <span className="flex items-center gap-1 text-accent-fg" data-testid={`activity-now-${nodeId}`}>
          <span className={cn('relative flex', large ? 'size-6' : 'size-2')} aria-hidden="true">
            <span className="absolute inline-flex size-full animate-ping rounded-full bg-accent opacity-75 motion-reduce:animate-none" />
            <span className="relative inline-flex size-full rounded-full bg-accent" />
          </span>
          {t.now} on call
        </span>
      )}
      {t.passed > 0 && (
        <span className="text-fg-muted" data-testid={`activity-passed-${nodeId}`}>
          {t.passed} passed
        </span>
      )}
    </div>
  );
}

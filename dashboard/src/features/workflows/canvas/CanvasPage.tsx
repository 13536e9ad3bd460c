import '@xyflow/react/dist/style.css';

import { useQuery } from '@tanstack/react-query';
import {
  Background,
  ControlButton,
  Controls,
  MiniMap,
  ReactFlow,
  ReactFlowProvider,
  useNodesState,
  useReactFlow,
  type Connection,
  type Edge as RfEdge,
  type Node as RfNode,
  type OnNodeDrag,
  type Viewport,
} from '@xyflow/react';
import { Activity, FileText, Keyboard, LayoutGrid, ListChecks, Map as MapIcon, Maximize, Redo2, Save, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type MouseEvent as ReactMouseEvent } from 'react';
import { useSearchParams } from 'react-router';

import type { PostCallField, Workflow } from '../../../api/gen/model';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, PageSkeleton } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast-store';
import { cn } from '../../../lib/cn';
import { RunControls } from '../../runs/RunControls';
import { RunsPanel } from '../../runs/RunsPanel';
import { teamPath, useCurrentTeam } from '../../team/TeamContext';
import { parseGraph, problemsByNode, str, validate, type Graph, type Kind } from '../graph';
import { PostCallFieldsDialog } from '../PostCallFieldsDialog';
import { PromptPanel } from '../PromptPanel';
import { workflowQueryOptions } from '../queries';
import { edgeTypes, EdgeContext, flowEdges } from './AddStepEdge';
import { AddStepDialog, type StepTarget } from './AddStepDialog';
import { Blockers } from './Blockers';
import { ConflictDialog } from './ConflictDialog';
import { CanvasMenu, menuItemsFor, type MenuTarget } from './CanvasMenu';
import { CanvasTools } from './CanvasTools';
import { CanvasContext, type CanvasActions } from './context';
import * as ops from './editor';
import { controlsCorner, MAX_ZOOM, MIN_ZOOM, MINIMAP_SIZE, minimapCorner, openingGraph, openingViewport, type Corner } from './layout';
import { EditPanel } from './EditPanel';
import { RunOverlayProvider } from './live/RunOverlay';
import { minimapColor, useMinimapChoice } from './minimap';
import { nodeTypes, specOf } from './nodes/registry';
import { ShortcutsDialog } from './ShortcutsDialog';
import { SidePanel } from './SidePanel';
import { useCanvasKeys } from './useCanvasKeys';
import { useHistory } from './useHistory';
import { useKeepCentre, useKeepInView } from './useKeepInView';
import { useSaveQueue, type SaveStatus } from './useSaveQueue';

const STATUS_TEXT: Record<SaveStatus, string> = {
  saved: 'All changes saved',
  pending: 'Unsaved changes',
  saving: 'Saving…',
  conflict: 'Not saved: changed elsewhere',
  invalid: 'Not saved: fix the marked steps',
  failed: 'Not saved: retrying on the next change',
};

/** Follows the dashboard's theme (the `dark` class on <html>), which React Flow draws its own parts in. */
function useDarkTheme(): boolean {
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  useEffect(() => {
    const observer = new MutationObserver(() => setDark(document.documentElement.classList.contains('dark')));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
    return () => observer.disconnect();
  }, []);
  return dark;
}

function toRfNodes(g: Graph, selected: ReadonlySet<string>): RfNode[] {
  return g.nodes.map((n) => ({
    id: n.id,
    type: n.type,
    position: n.position,
    data: n.data,
    hidden: n.type === 'invisible',
    selected: selected.has(n.id),
    deletable: false,
    width: specOf(n.type).width,
    height: specOf(n.type).height,
  }));
}

/** What the canvas's history keeps: everything the user edits here. */
interface Doc {
  graph: Graph;
  fields: PostCallField[];
}

function Editor({ workflow }: { workflow: Workflow }) {
  const team = useCurrentTeam();
  const rf = useReactFlow();
  const seeded = useRef(false);
  const queue = useSaveQueue(workflow.id, workflow.version);
  // One history for everything the user edits here: the graph and the post-call fields.
  const history = useHistory<Doc>(
    () => {
      const fields = workflow.postCallFields ?? [];
      const g = parseGraph({ nodes: workflow.nodes ?? [], edges: workflow.edges ?? [] });
      // A workflow never saved has no nodes on the server: it starts with Start (and Contacts).
      if (g.nodes.length === 0) {
        seeded.current = true;
        return { graph: ops.seedGraph(workflow.workflowType), fields };
      }
      return { graph: g.nodes.every((n) => n.position.x === 0 && n.position.y === 0) ? ops.settle(g) : openingGraph(g), fields };
    },
    (next, before) => (next.fields !== before.fields ? queue.scheduleFields(next.graph, next.fields) : queue.schedule(next.graph)),
  );
  const { reset, canUndo, canRedo, current } = history;
  // An undo or redo shows in an open step panel: it starts again from the step's data now.
  const [panelRev, setPanelRev] = useState(0);
  const undo = useCallback(() => {
    history.undo();
    setPanelRev((r) => r + 1);
  }, [history.undo]);
  const redo = useCallback(() => {
    history.redo();
    setPanelRev((r) => r + 1);
  }, [history.redo]);
  const graph = history.value.graph;
  const postCallFields = history.value.fields;
  /** The graph now (newer than this render's after an edit in the same event). */
  const graphNow = useCallback(() => current().graph, [current]);
  const commit = useCallback(
    (next: Graph, opts?: { merge?: string }) => {
      if (next !== current().graph) history.commit({ ...current(), graph: next }, opts);
    },
    [current, history.commit],
  );
  const [rfNodes, setRfNodes, onNodesChange] = useNodesState<RfNode>(toRfNodes(graph, new Set()));
  // The selection lives in React Flow's store (clicks change it through onNodesChange); it is read
  // from there when needed, never copied into state that could lag behind it.
  const selectedNow = useCallback(() => rf.getNodes().filter((n) => n.selected).map((n) => n.id), [rf]);
  const rfEdges = useMemo(() => flowEdges(graph), [graph]);
  const [stepTarget, setStepTarget] = useState<StepTarget | null>(null);
  const [editing, setEditing] = useState<string | null>(null);
  const [showPrompt, setShowPrompt] = useState(false);
  const [showRuns, setShowRuns] = useState(false);
  const [showFields, setShowFields] = useState(false);
  const [showKeys, setShowKeys] = useState(false);
  const dark = useDarkTheme();

  useEffect(() => {
    if (seeded.current) {
      seeded.current = false;
      queue.schedule(graphNow(), { now: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The nodes are built from the graph they were first made of; only a new graph rebuilds them,
  // keeping the selection (selection changes come through onNodesChange).
  const builtFrom = useRef(graph);
  /** The steps to select when the graph is rebuilt next (the copies a duplicate made). */
  const selectNext = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (builtFrom.current === graph) return;
    builtFrom.current = graph;
    setRfNodes(toRfNodes(graph, selectNext.current ?? new Set(selectedNow())));
    selectNext.current = null;
  }, [graph, setRfNodes, selectedNow]);

  // The first view, set from the canvas's box before anything is drawn: the whole flow when it
  // reads at that zoom, else Start at a readable zoom (layout.ts); the minimap and the zoom
  // controls take corners it leaves free.
  const box = useRef<HTMLDivElement>(null);
  const [initialViewport, setInitialViewport] = useState<Viewport | null>(null);
  const [corners, setCorners] = useState<{ minimap: Corner; controls: Corner }>({ minimap: 'top-right', controls: 'bottom-left' });
  useLayoutEffect(() => {
    const r = box.current?.getBoundingClientRect();
    const width = r?.width || 1024;
    const height = r?.height || 600;
    const view = openingViewport(graphNow(), width, height);
    const minimap = minimapCorner(graphNow(), view, width, height);
    setCorners({ minimap, controls: controlsCorner(graphNow(), view, width, height, minimap) });
    setInitialViewport(view);
  }, []);
  const [minimapShown, setMinimapShown] = useMinimapChoice();

  /** Brings a new step and its neighbours into view (only what is in view is drawn). */
  const focusOn = useCallback(
    (id: string) => {
      const g = graphNow();
      const ids = new Set([id]);
      for (const e of g.edges) {
        if (e.source === id) ids.add(e.target);
        if (e.target === id) ids.add(e.source);
      }
      // after React Flow has the new nodes
      requestAnimationFrame(() => void rf.fitView({ nodes: [...ids].map((x) => ({ id: x })), maxZoom: 1, padding: 0.2, duration: 0 }));
    },
    [rf],
  );

  const removeNow = useCallback(
    (id: string) => {
      commit(ops.removeNode(graphNow(), id));
      setEditing((e) => (e === id ? null : e));
    },
    [commit],
  );
  // A Contacts node with a source asks first: once saved, its contacts are gone (undo brings the
  // node back without them).
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null);
  const remove = useCallback(
    (id: string) => {
      const n = graphNow().nodes.find((x) => x.id === id);
      if (n?.type === 'start') {
        toast.warning('Every workflow has one Start node: it cannot be deleted.');
        return;
      }
      if (n?.type === 'contacts' && str(n.data, 'contactsSource')) setConfirmRemove(id);
      else removeNow(id);
    },
    [removeNow],
  );

  const problems = useMemo(() => validate(graph, workflow.workflowType), [graph, workflow.workflowType]);
  const stepProblems = useMemo(() => problemsByNode(problems), [problems]);

  /**
   * A blocker's click: selects the step and zooms onto it alone, up to zoom 1, so what it says and
   * its reason can be read (a workflow-wide problem shows the whole flow).
   */
  const focusStep = useCallback(
    (id: string | undefined) => {
      if (id === undefined) {
        void rf.fitView({ duration: 200 });
        return;
      }
      setRfNodes((ns) => ns.map((n) => (n.selected === (n.id === id) ? n : { ...n, selected: n.id === id })));
      void rf.fitView({ nodes: [{ id }], maxZoom: 1, padding: 0.3, duration: 200 });
    },
    [rf, setRfNodes],
  );

  const actions: CanvasActions = useMemo(
    () => ({
      edit: (id) => {
        const spec = specOf(graphNow().nodes.find((n) => n.id === id)?.type ?? '');
        if (spec.notEditable) toast.warning(spec.notEditable);
        else if (spec.Edit) setEditing(id);
      },
      remove,
      addAfter: (id) => setStepTarget({ after: id }),
      deleteIncoming: (id) => commit(ops.deleteIncoming(graphNow(), id)),
      addPath: (id) => {
        const res = ops.addPath(graphNow(), id);
        commit(res.graph);
        focusOn(res.added);
      },
      focus: focusOn,
      patchData: (id, patch) => {
        const n = graphNow().nodes.find((x) => x.id === id);
        if (n) commit(ops.updateData(graphNow(), id, { ...n.data, ...patch }));
      },
      usedSources: ops.usedSources(graph),
      hasIncoming: ops.withIncoming(graph),
      problems: stepProblems,
      workflowId: workflow.id,
      readOnly: false,
    }),
    [commit, focusOn, graph, remove, stepProblems, workflow.id],
  );

  const edgeActions = useMemo(
    () => ({
      onPlus: (edgeId: string) => {
        const e = graphNow().edges.find((x) => x.id === edgeId);
        const source = graphNow().nodes.find((n) => n.id === e?.source);
        // From a Conditional Path the plus adds a path; elsewhere it inserts a step.
        if (source?.type === 'conditional-path') {
          const res = ops.addPath(graphNow(), source.id);
          commit(res.graph);
          focusOn(res.added);
        } else setStepTarget({ edge: edgeId });
      },
      readOnly: false,
    }),
    [commit, focusOn],
  );

  const pickStep = (kind: Kind) => {
    const t = stepTarget;
    setStepTarget(null);
    if (!t) return;
    const res = 'after' in t ? ops.addAfter(graphNow(), t.after, kind) : ops.insertOnEdge(graphNow(), t.edge, kind);
    commit(res.graph);
    focusOn(res.added);
    if (specOf(kind).Edit && kind !== 'conditional-path' && kind !== 'end-call') setEditing(res.added);
  };

  const tidy = () => {
    commit(ops.tidy(graphNow()));
    requestAnimationFrame(() => void rf.fitView({ duration: 200 }));
  };

  const onConnect = useCallback((c: Connection) => commit(ops.connect(graphNow(), c.source, c.target)), [commit]);
  const isValidConnection = useCallback((c: Connection | RfEdge) => {
    const g = graphNow();
    const src = g.nodes.find((n) => n.id === c.source);
    if (!src || c.source === c.target) return false;
    return src.type === 'conditional-path' || !g.edges.some((e) => e.source === c.source);
  }, []);

  const onNodeDragStop: OnNodeDrag = useCallback(
    (_e, _node, nodes) => commit(ops.moveNodes(graphNow(), new Map(nodes.map((n) => [n.id, n.position])))),
    [commit],
  );

  const duplicate = useCallback(
    (ids: string[]) => {
      const res = ops.duplicate(graphNow(), ids);
      if (res.skipped.length > 0) toast.warning(`${[...new Set(res.skipped.map((n) => specOf(n.type).label))].join(' and ')} cannot be duplicated: a workflow has only one.`);
      if (res.added.length === 0) return;
      selectNext.current = new Set(res.added);
      commit(res.graph);
    },
    [commit, graphNow],
  );

  // A step removed (by an undo, say) closes its panel.
  useEffect(() => {
    if (editing && !graph.nodes.some((n) => n.id === editing)) setEditing(null);
  }, [editing, graph]);

  useKeepCentre(box);
  useKeepInView(editing, box);

  const [menu, setMenu] = useState<MenuTarget | null>(null);
  const openMenuFromPointer = (e: ReactMouseEvent | MouseEvent, kind: MenuTarget['kind'], id: string) => {
    e.preventDefault();
    setMenu({ kind, id, x: e.clientX, y: e.clientY });
  };
  const openMenuAt = useCallback((el: HTMLElement) => {
    const id = el.getAttribute('data-id');
    if (!id) return;
    const r = el.getBoundingClientRect();
    setMenu({ kind: el.classList.contains('react-flow__edge') ? 'edge' : 'node', id, x: r.left + r.width / 2, y: r.top + r.height / 2, returnTo: el });
  }, []);

  useCanvasKeys({
    undo,
    redo,
    remove,
    selectedNow,
    fit: () => void rf.fitView({ duration: 200 }),
    duplicate,
    nudge: (ids, dx, dy) => commit(ops.nudge(graphNow(), ids, dx, dy), { merge: `nudge:${ids.join()}` }),
    escape: () => {
      if (editing) setEditing(null);
      else if (showRuns) setShowRuns(false);
      else if (showPrompt) setShowPrompt(false);
      else setRfNodes((ns) => ns.map((n) => (n.selected ? { ...n, selected: false } : n)));
    },
    openMenu: openMenuAt,
  });
  const menuItems = menuItemsFor(menu, graph, { actions, edgeActions, duplicate, deleteEdge: (id) => commit(ops.deleteEdge(graphNow(), id)), fit: () => void rf.fitView({ duration: 200 }), tidy: () => tidy() });
  const saveErrors = queue.errors;

  return (
    <div className="flex h-[calc(100vh-8.5rem)] min-h-[28rem] flex-col gap-3">
      <PageHeader
        title={workflow.name}
        breadcrumbs={[{ label: 'Workflows', to: teamPath('/dashboard/workflow-canvas', team.id) }]}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <Badge tone="neutral">{workflow.workflowType === 'inbound' ? 'Inbound' : 'Outbound'}</Badge>
            <span role="status" data-testid="save-status" data-status={queue.status} aria-busy={queue.status === 'saving'} className={cn('text-sm', queue.status === 'conflict' || queue.status === 'invalid' ? 'text-danger-fg' : 'text-fg-muted')}>
              {STATUS_TEXT[queue.status]}
            </span>
            {problems.length > 0 && <span className="text-sm text-warning-fg">{problems.length === 1 ? '1 thing stops it from running' : `${problems.length} things stop it from running`}</span>}
          </span>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <Button variant="ghost" size="icon" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={!canUndo} onClick={undo}>
              <Undo2 aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label="Redo" title="Redo (Ctrl+Shift+Z or Ctrl+Y)" disabled={!canRedo} onClick={redo}>
              <Redo2 aria-hidden="true" />
            </Button>
            {/* Icons with their names as labels and tooltips, so the header's actions stay on one
                line beside the title and the canvas keeps its height. */}
            <CanvasTools
              tools={[
                { label: 'Fit view', title: 'Fit view (F)', icon: Maximize, onClick: () => void rf.fitView({ duration: 200 }) },
                { label: 'Tidy up', title: 'Tidy up: lay out every step again, the ones you placed by hand too (Ctrl+Z undoes it). Adding or deleting a step never moves a step you placed.', icon: LayoutGrid, onClick: tidy },
                { label: 'Prompt', title: 'Prompt: the readable script of this workflow', icon: FileText, onClick: () => setShowPrompt((s) => !s), pressed: showPrompt },
                { label: 'Runs', title: 'Runs: the job in progress and the history', icon: Activity, onClick: () => setShowRuns((s) => !s), pressed: showRuns },
                { label: 'Post-call fields', title: 'Post-call fields: what Betty reads from each finished call', icon: ListChecks, onClick: () => setShowFields(true) },
                { label: 'Keyboard shortcuts', title: 'Keyboard shortcuts', icon: Keyboard, onClick: () => setShowKeys(true) },
              ]}
            />
            <Button variant={workflow.workflowType === 'outbound' ? 'secondary' : 'primary'} onClick={() => queue.schedule(graphNow(), { now: true })} busy={queue.status === 'saving'} busyLabel="Saving…" disabled={queue.status === 'conflict'}>
              <Save aria-hidden="true" />
              Save
            </Button>
            <RunControls team={team} workflow={workflow} unsaved={queue.status !== 'saved'} onStarted={() => setShowRuns(true)} />
          </div>
        }
      />
      {showFields && (
        <PostCallFieldsDialog
          open
          onOpenChange={setShowFields}
          fields={postCallFields}
          errors={saveErrors}
          onSave={(next) => {
            history.commit({ ...current(), fields: next });
            setShowFields(false);
          }}
        />
      )}
      {saveErrors.length > 0 && (
        <div role="alert" className="rounded-md border border-danger/30 bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
          The server refused this graph: {saveErrors.map((e) => `${e.field}: ${e.message}`).join(' · ')}
        </div>
      )}
      <CanvasContext.Provider value={actions}>
        {/* The canvas and the panels beside it: a panel shrinks the canvas, never covers it. */}
        <div className="flex min-h-0 flex-1 gap-3">
          <div ref={box} className="relative min-h-0 min-w-0 flex-1 overflow-hidden rounded-xl border border-line bg-canvas" data-testid="workflow-canvas">
            <EdgeContext.Provider value={edgeActions}>
              {initialViewport && (
                <ReactFlow
                  nodes={rfNodes}
                  edges={rfEdges}
                  nodeTypes={nodeTypes}
                  edgeTypes={edgeTypes}
                  onNodesChange={onNodesChange}
                  onNodeDragStop={onNodeDragStop}
                  onConnect={onConnect}
                  isValidConnection={isValidConnection}
                  onNodeContextMenu={(e, n) => openMenuFromPointer(e, 'node', n.id)}
                  onEdgeContextMenu={(e, edge) => openMenuFromPointer(e, 'edge', edge.id)}
                  onPaneContextMenu={(e) => openMenuFromPointer(e, 'pane', '')}
                  deleteKeyCode={null}
                  onlyRenderVisibleElements
                  minZoom={MIN_ZOOM}
                  maxZoom={MAX_ZOOM}
                  defaultViewport={initialViewport}
                  proOptions={{ hideAttribution: true }}
                  colorMode={dark ? 'dark' : 'light'}
                >
                  <Background gap={24} />
                  <Controls showInteractive={false} orientation="horizontal" position={corners.controls}>
                    {graph.nodes.length < 150 && (
                      <ControlButton className="!hidden md:!flex" aria-label="Show the minimap" title={minimapShown ? 'Hide the minimap' : 'Show the minimap'} aria-pressed={minimapShown} onClick={() => setMinimapShown(!minimapShown)}>
                        <MapIcon aria-hidden="true" />
                      </ControlButton>
                    )}
                  </Controls>
                  {graph.nodes.length < 150 && minimapShown && (
                    <MiniMap pannable zoomable position={corners.minimap} style={MINIMAP_SIZE} nodeColor={minimapColor} nodeBorderRadius={24} ariaLabel="Minimap of the whole workflow" className="!hidden md:!block" />
                  )}
                </ReactFlow>
              )}
            </EdgeContext.Provider>
          </div>
          {showPrompt && (
            <SidePanel label="Prompt" title="Prompt" side="left" onClose={() => setShowPrompt(false)}>
              <PromptPanel workflowId={workflow.id} />
            </SidePanel>
          )}
          {editing && (
            <EditPanel
              key={`${editing}:${panelRev}`}
              nodeId={editing}
              graph={graph}
              onClose={() => setEditing(null)}
              onApply={(data) => {
                commit(ops.updateData(graphNow(), editing, data));
                setEditing(null);
              }}
            />
          )}
          {showRuns && (
            <SidePanel label="Runs" title="Runs" wide onClose={() => setShowRuns(false)}>
              <RunsPanel team={team} workflowId={workflow.id} compact />
            </SidePanel>
          )}
        </div>
      </CanvasContext.Provider>
      <CanvasMenu target={menu} label={menu?.kind === 'edge' ? 'Connection' : menu?.kind === 'node' ? 'Step' : 'Canvas'} items={menuItems} onClose={() => setMenu(null)} />
      <Blockers problems={problems} graph={graph} onFocus={focusStep} />
      <ShortcutsDialog open={showKeys} onOpenChange={setShowKeys} />
      <AddStepDialog target={stepTarget} onClose={() => setStepTarget(null)} onPick={pickStep} />
      <ConfirmDialog
        open={confirmRemove !== null}
        onOpenChange={(open) => !open && setConfirmRemove(null)}
        title="Delete the Contacts node?"
        description="Its contacts source and every contact imported into it are removed when the workflow saves. Undo brings the node back, but not its contacts: you would import them again."
        confirmLabel="Delete node and contacts"
        onConfirm={() => {
          if (confirmRemove) removeNow(confirmRemove);
          setConfirmRemove(null);
        }}
      />
      <ConflictDialog
        open={queue.status === 'conflict'}
        mine={queue.version.current}
        theirs={queue.conflictVersion}
        onKeepMine={() => void queue.keepMine().catch((e: unknown) => toast.error(e))}
        onReload={async () => {
          try {
            const stored = await queue.reloadStored();
            reset({ graph: parseGraph({ nodes: stored.nodes ?? [], edges: stored.edges ?? [] }), fields: stored.postCallFields ?? [] });
          } catch (e) {
            toast.error(e);
          }
        }}
      />
    </div>
  );
}

/** /dashboard/workflow-canvas?workflowId=… — the canvas of one workflow. */
export default function CanvasPage() {
  const [params] = useSearchParams();
  const workflowId = params.get('workflowId') ?? '';
  const workflow = useQuery({ ...workflowQueryOptions(workflowId), refetchInterval: false });
  if (workflow.isPending) return <PageSkeleton label="Loading the workflow…" />;
  if (workflow.isError) return <ErrorState error={workflow.error} onRetry={() => void workflow.refetch()} />;
  return (
    <ReactFlowProvider>
      <RunOverlayProvider workflowId={workflow.data.id}>
        <Editor key={workflow.data.id} workflow={workflow.data} />
      </RunOverlayProvider>
    </ReactFlowProvider>
  );
}

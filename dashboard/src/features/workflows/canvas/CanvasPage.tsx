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
import { Activity, FileText, LayoutGrid, ListChecks, Map as MapIcon, Maximize, Redo2, Save, Undo2 } from 'lucide-react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';

import type { Workflow } from '../../../api/gen/model';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog';
import { Dialog, DialogContent, DialogFooter } from '../../../components/ui/dialog';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, PageSkeleton } from '../../../components/ui/states';
import { toast } from '../../../components/ui/toast-store';
import { cn } from '../../../lib/cn';
import { RunControls } from '../../runs/RunControls';
import { RunsPanel } from '../../runs/RunsPanel';
import { teamPath, useCurrentTeam } from '../../team/TeamContext';
import { parseGraph, str, validate, type Data, type Graph, type Kind } from '../graph';
import { PostCallFieldsDialog } from '../PostCallFieldsDialog';
import { PromptPanel } from '../PromptPanel';
import { workflowQueryOptions } from '../queries';
import { edgeTypes, EdgeContext, flowEdges } from './AddStepEdge';
import { CanvasContext, type CanvasActions } from './context';
import * as ops from './editor';
import { controlsCorner, MAX_ZOOM, MIN_ZOOM, MINIMAP_SIZE, minimapCorner, openingGraph, openingViewport, type Corner } from './layout';
import { minimapColor, useMinimapChoice } from './minimap';
import { NODE_KINDS, nodeTypes, specOf } from './nodes/registry';
import { useSaveQueue, type SaveStatus } from './useSaveQueue';

const HISTORY_LIMIT = 100;

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

type StepTarget = { after: string } | { edge: string };

function AddStepDialog({ target, onClose, onPick }: { target: StepTarget | null; onClose: () => void; onPick: (kind: Kind) => void }) {
  const kinds = Object.values(NODE_KINDS).filter((k) => k.addable);
  return (
    <Dialog open={target !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title="Add a step" description="Choose what happens next in the call.">
        <ul className="grid gap-2 sm:grid-cols-2">
          {kinds.map((k) => (
            <li key={k.kind}>
              <button type="button" className="w-full rounded-lg border-2 bg-surface p-3 text-left hover:bg-muted" style={{ borderColor: k.color }} onClick={() => onPick(k.kind)}>
                <span className="block text-sm font-semibold text-fg">{k.label}</span>
                <span className="block text-xs text-fg-muted">{k.hint}</span>
              </button>
            </li>
          ))}
        </ul>
      </DialogContent>
    </Dialog>
  );
}

function EditPanel({ nodeId, graph, onApply, onClose }: { nodeId: string; graph: Graph; onApply: (data: Data) => void; onClose: () => void }) {
  const n = graph.nodes.find((x) => x.id === nodeId);
  const [draft, setDraft] = useState<Data>(() => ({ ...(n?.data ?? {}) }));
  if (!n) return null;
  const spec = specOf(n.type);
  const Edit = spec.Edit;
  const problems = spec.validate(draft);
  return (
    <aside aria-label={`Edit ${spec.label}`} className="absolute top-0 right-0 z-10 flex h-full w-full max-w-sm flex-col border-l border-line bg-surface shadow-xl">
      <div className="flex items-center justify-between border-b border-line px-4 py-3">
        <h2 className="text-sm font-semibold text-fg">
          <span className="mr-2 inline-block size-2 rounded-full" style={{ background: spec.color }} aria-hidden="true" />
          Edit {spec.label}
        </h2>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto p-4">{Edit && <Edit nodeId={nodeId} data={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} />}</div>
      <div className="flex justify-end gap-2 border-t border-line px-4 py-3">
        <Button variant="secondary" onClick={onClose}>
          Cancel
        </Button>
        <Button
          onClick={() => onApply(draft)}
          // A value the server refuses cannot be applied; a missing one can (it only stops a run).
          disabled={Object.keys(problems).some((f) => !['instruction', 'description', 'destinationPhoneNumber', 'webhookUrl', 'lifeCycleStage', 'contactsSource'].includes(f) || !!draft[f])}
        >
          Apply
        </Button>
      </div>
    </aside>
  );
}

function Editor({ workflow }: { workflow: Workflow }) {
  const team = useCurrentTeam();
  const rf = useReactFlow();
  const seeded = useRef(false);
  const [graph, setGraph] = useState<Graph>(() => {
    const g = parseGraph({ nodes: workflow.nodes ?? [], edges: workflow.edges ?? [] });
    // A workflow never saved has no nodes on the server: it starts with Start (and Contacts).
    if (g.nodes.length === 0) {
      seeded.current = true;
      return ops.seedGraph(workflow.workflowType);
    }
    return g.nodes.every((n) => n.position.x === 0 && n.position.y === 0) ? ops.settle(g) : openingGraph(g);
  });
  const history = useRef<{ past: Graph[]; future: Graph[] }>({ past: [], future: [] });
  const [, bump] = useState(0);
  const queue = useSaveQueue(workflow.id, workflow.version);
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
  const [postCallFields, setPostCallFields] = useState(workflow.postCallFields ?? []);
  const graphRef = useRef(graph);
  graphRef.current = graph;
  const dark = useDarkTheme();

  useEffect(() => {
    if (seeded.current) {
      seeded.current = false;
      queue.schedule(graphRef.current, { now: true });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // The nodes are built from the graph they were first made of; only a new graph rebuilds them,
  // keeping the selection (selection changes come through onNodesChange).
  const builtFrom = useRef(graph);
  useEffect(() => {
    if (builtFrom.current === graph) return;
    builtFrom.current = graph;
    setRfNodes(toRfNodes(graph, new Set(selectedNow())));
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
    const view = openingViewport(graphRef.current, width, height);
    const minimap = minimapCorner(graphRef.current, view, width, height);
    setCorners({ minimap, controls: controlsCorner(graphRef.current, view, width, height, minimap) });
    setInitialViewport(view);
  }, []);
  const [minimapShown, setMinimapShown] = useMinimapChoice();

  const commit = useCallback(
    (next: Graph) => {
      if (next === graphRef.current) return;
      history.current.past = [...history.current.past.slice(-HISTORY_LIMIT + 1), graphRef.current];
      history.current.future = [];
      graphRef.current = next;
      setGraph(next);
      queue.schedule(next);
    },
    [queue],
  );

  const undo = useCallback(() => {
    const prev = history.current.past.pop();
    if (!prev) return;
    history.current.future.push(graphRef.current);
    graphRef.current = prev;
    setGraph(prev);
    queue.schedule(prev);
    bump((x) => x + 1);
  }, [queue]);

  const redo = useCallback(() => {
    const next = history.current.future.pop();
    if (!next) return;
    history.current.past.push(graphRef.current);
    graphRef.current = next;
    setGraph(next);
    queue.schedule(next);
    bump((x) => x + 1);
  }, [queue]);

  /** Brings a new step and its neighbours into view (only what is in view is drawn). */
  const focusOn = useCallback(
    (id: string) => {
      const g = graphRef.current;
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
      commit(ops.removeNode(graphRef.current, id));
      setEditing((e) => (e === id ? null : e));
    },
    [commit],
  );
  // A Contacts node with a source asks first: once saved, its contacts are gone (undo brings the
  // node back without them).
  const [confirmRemove, setConfirmRemove] = useState<string | null>(null);
  const remove = useCallback(
    (id: string) => {
      const n = graphRef.current.nodes.find((x) => x.id === id);
      if (n?.type === 'start') {
        toast.warning('Every workflow has one Start node: it cannot be deleted.');
        return;
      }
      if (n?.type === 'contacts' && str(n.data, 'contactsSource')) setConfirmRemove(id);
      else removeNow(id);
    },
    [removeNow],
  );

  const actions: CanvasActions = useMemo(
    () => ({
      edit: (id) => {
        const spec = specOf(graphRef.current.nodes.find((n) => n.id === id)?.type ?? '');
        if (spec.notEditable) toast.warning(spec.notEditable);
        else if (spec.Edit) setEditing(id);
      },
      remove,
      addAfter: (id) => setStepTarget({ after: id }),
      deleteIncoming: (id) => commit(ops.deleteIncoming(graphRef.current, id)),
      addPath: (id) => {
        const res = ops.addPath(graphRef.current, id);
        commit(res.graph);
        focusOn(res.added);
      },
      focus: focusOn,
      patchData: (id, patch) => {
        const n = graphRef.current.nodes.find((x) => x.id === id);
        if (n) commit(ops.updateData(graphRef.current, id, { ...n.data, ...patch }));
      },
      usedSources: ops.usedSources(graph),
      hasIncoming: ops.withIncoming(graph),
      workflowId: workflow.id,
      readOnly: false,
    }),
    [commit, focusOn, graph, remove, workflow.id],
  );

  const edgeActions = useMemo(
    () => ({
      onPlus: (edgeId: string) => {
        const e = graphRef.current.edges.find((x) => x.id === edgeId);
        const source = graphRef.current.nodes.find((n) => n.id === e?.source);
        // From a Conditional Path the plus adds a path; elsewhere it inserts a step.
        if (source?.type === 'conditional-path') {
          const res = ops.addPath(graphRef.current, source.id);
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
    const res = 'after' in t ? ops.addAfter(graphRef.current, t.after, kind) : ops.insertOnEdge(graphRef.current, t.edge, kind);
    commit(res.graph);
    focusOn(res.added);
    if (specOf(kind).Edit && kind !== 'conditional-path' && kind !== 'end-call') setEditing(res.added);
  };

  const onConnect = useCallback((c: Connection) => commit(ops.connect(graphRef.current, c.source, c.target)), [commit]);
  const isValidConnection = useCallback((c: Connection | RfEdge) => {
    const g = graphRef.current;
    const src = g.nodes.find((n) => n.id === c.source);
    if (!src || c.source === c.target) return false;
    return src.type === 'conditional-path' || !g.edges.some((e) => e.source === c.source);
  }, []);

  const onNodeDragStop: OnNodeDrag = useCallback(
    (_e, _node, nodes) => commit(ops.moveNodes(graphRef.current, new Map(nodes.map((n) => [n.id, n.position])))),
    [commit],
  );

  // Keyboard (on the whole page while the canvas is open, outside fields and dialogs): Delete or
  // Backspace removes the selected steps, Ctrl/⌘+Z undoes, Ctrl/⌘+Shift+Z or Ctrl+Y redoes, F fits the view.
  // The steps to remove are the store's selection when the key is pressed (a copy kept through
  // onSelectionChange, an effect, could lag a quick key press: Delete right after a click on a
  // far-out card sometimes removed nothing).
  const keys = useRef({ undo, redo, remove, selectedNow, fit: () => void rf.fitView({ duration: 200 }) });
  keys.current = { undo, redo, remove, selectedNow, fit: () => void rf.fitView({ duration: 200 }) };
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (e.defaultPrevented || target?.closest('input, textarea, select, [contenteditable="true"], [role="dialog"], [role="menu"], aside')) return;
      const k = keys.current;
      const mod = e.ctrlKey || e.metaKey;
      if (mod && e.key.toLowerCase() === 'z') {
        e.preventDefault();
        if (e.shiftKey) k.redo();
        else k.undo();
      } else if (mod && e.key.toLowerCase() === 'y') {
        e.preventDefault();
        k.redo();
      } else if (e.key === 'Delete' || e.key === 'Backspace') {
        const ids = k.selectedNow();
        if (ids.length === 0) return;
        e.preventDefault();
        for (const id of ids) k.remove(id);
      } else if (e.key.toLowerCase() === 'f' && !mod && !e.altKey) {
        k.fit();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  const problems = useMemo(() => validate(graph, workflow.workflowType), [graph, workflow.workflowType]);
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
            <Button variant="ghost" size="icon" aria-label="Undo" title="Undo (Ctrl+Z)" disabled={history.current.past.length === 0} onClick={undo}>
              <Undo2 aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label="Redo" title="Redo (Ctrl+Shift+Z)" disabled={history.current.future.length === 0} onClick={redo}>
              <Redo2 aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label="Fit view" title="Fit view (F)" onClick={() => void rf.fitView({ duration: 200 })}>
              <Maximize aria-hidden="true" />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              aria-label="Tidy up"
              title="Tidy up: lay out every step again, the ones you placed by hand too (Ctrl+Z undoes it). Adding or deleting a step never moves a step you placed."
              onClick={() => {
                commit(ops.tidy(graphRef.current));
                requestAnimationFrame(() => void rf.fitView({ duration: 200 }));
              }}
            >
              <LayoutGrid aria-hidden="true" />
            </Button>
            {/* Prompt and Runs are icons (with their names as labels and tooltips) so the header's
                actions stay on one line beside the title and the canvas keeps its height. */}
            <Button variant="ghost" size="icon" aria-label="Prompt" title="Prompt: the readable script of this workflow" onClick={() => setShowPrompt((s) => !s)} aria-pressed={showPrompt}>
              <FileText aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label="Runs" title="Runs: the job in progress and the history" onClick={() => setShowRuns((s) => !s)} aria-pressed={showRuns}>
              <Activity aria-hidden="true" />
            </Button>
            <Button variant="ghost" size="icon" aria-label="Post-call fields" title="Post-call fields: what Betty reads from each finished call" onClick={() => setShowFields(true)} aria-pressed={showFields}>
              <ListChecks aria-hidden="true" />
            </Button>
            <Button variant={workflow.workflowType === 'outbound' ? 'secondary' : 'primary'} onClick={() => queue.schedule(graphRef.current, { now: true })} busy={queue.status === 'saving'} busyLabel="Saving…" disabled={queue.status === 'conflict'}>
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
            setPostCallFields(next);
            queue.scheduleFields(graphRef.current, next);
            setShowFields(false);
          }}
        />
      )}
      {saveErrors.length > 0 && (
        <div role="alert" className="rounded-md border border-danger/30 bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
          The server refused this graph: {saveErrors.map((e) => `${e.field}: ${e.message}`).join(' · ')}
        </div>
      )}
      <div ref={box} className="relative min-h-0 flex-1 overflow-hidden rounded-xl border border-line bg-canvas" data-testid="workflow-canvas">
        <CanvasContext.Provider value={actions}>
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
          {editing && (
            <EditPanel
              key={editing}
              nodeId={editing}
              graph={graph}
              onClose={() => setEditing(null)}
              onApply={(data) => {
                commit(ops.updateData(graphRef.current, editing, data));
                setEditing(null);
              }}
            />
          )}
        </CanvasContext.Provider>
        {showRuns && (
          <aside aria-label="Runs" className="absolute top-0 right-0 z-10 h-full w-full max-w-md overflow-y-auto border-l border-line bg-surface p-4 shadow-xl">
            <RunsPanel team={team} workflowId={workflow.id} compact />
          </aside>
        )}
        {showPrompt && (
          <div className="absolute top-0 left-0 z-10 h-full w-full max-w-sm border-r border-line bg-surface p-4 shadow-xl">
            <PromptPanel workflowId={workflow.id} />
          </div>
        )}
      </div>
      {problems.length > 0 && (
        <details className="text-sm text-fg-muted">
          <summary className="cursor-pointer">What stops it from running</summary>
          <ul className="mt-1 list-disc pl-5">
            {problems.slice(0, 20).map((p) => (
              <li key={p.field + p.rule}>
                {p.field}: {p.message}
              </li>
            ))}
          </ul>
        </details>
      )}
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
            const current = await queue.reloadStored();
            history.current = { past: [], future: [] };
            const g = parseGraph({ nodes: current.nodes ?? [], edges: current.edges ?? [] });
            graphRef.current = g;
            setGraph(g);
          } catch (e) {
            toast.error(e);
          }
        }}
      />
    </div>
  );
}

function ConflictDialog({ open, mine, theirs, onKeepMine, onReload }: { open: boolean; mine: number; theirs: number | undefined; onKeepMine: () => void; onReload: () => void }) {
  const saved = theirs === undefined ? 'saved this workflow after you opened it' : `saved version ${theirs} of this workflow; your changes are based on version ${mine}`;
  return (
    <Dialog open={open}>
      <DialogContent title="This workflow changed elsewhere" description={`Someone (or another tab) ${saved}. Your latest changes are not saved yet.`}>
        <p className="text-sm text-fg-soft">
          Reload to see {theirs === undefined ? 'their version' : `version ${theirs}`} and lose your unsaved changes, or keep yours and save it over theirs.
        </p>
        <DialogFooter>
          <Button variant="secondary" onClick={onReload}>
            Reload their version
          </Button>
          <Button onClick={onKeepMine}>Keep mine</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
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
      <Editor key={workflow.data.id} workflow={workflow.data} />
    </ReactFlowProvider>
  );
}

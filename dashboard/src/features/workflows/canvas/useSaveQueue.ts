import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';

import { isApiError } from '../../../api/mutator';
import type { FieldError, PostCallField, WorkflowEdge, WorkflowNode } from '../../../api/gen/model';
import type { Graph } from '../graph';
import { fetchWorkflow, saveGraph } from '../queries';

export type SaveStatus = 'saved' | 'pending' | 'saving' | 'conflict' | 'invalid' | 'failed';

/** Wait after the last edit before saving, so typing or dragging makes one save. */
export const SAVE_DEBOUNCE_MS = 700;

/**
 * Saves the graph one request at a time, each based on the version the last one answered: an
 * edit made while a save is in flight waits for it, then goes with the new version. A save the
 * server refuses as stale (409) stops the queue and becomes a choice — reload the stored graph,
 * or save this one on top of it — never a silent overwrite.
 */
export function useSaveQueue(workflowId: string, initialVersion: number) {
  const queryClient = useQueryClient();
  const version = useRef(initialVersion);
  const pending = useRef<Graph | null>(null);
  /** Post-call fields to send with the next save (undefined: the stored ones are kept). */
  const pendingFields = useRef<PostCallField[] | undefined>(undefined);
  const inFlight = useRef(false);
  const blocked = useRef(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [status, setStatus] = useState<SaveStatus>('saved');
  const [errors, setErrors] = useState<FieldError[]>([]);
  /** After a conflict: the version stored now, as the 409 said (undefined when it did not). */
  const [conflictVersion, setConflictVersion] = useState<number | undefined>(undefined);

  const flush = useCallback(async () => {
    clearTimeout(timer.current);
    if (inFlight.current || blocked.current || !pending.current) return;
    const graph = pending.current;
    const fields = pendingFields.current;
    pending.current = null;
    inFlight.current = true;
    setStatus('saving');
    try {
      const saved = await saveGraph(queryClient, {
        workflowId,
        nodes: graph.nodes as unknown as WorkflowNode[],
        edges: graph.edges as unknown as WorkflowEdge[],
        ...(fields ? { postCallFields: fields } : {}),
        version: version.current,
      });
      if (pendingFields.current === fields) pendingFields.current = undefined;
      version.current = saved.version;
      setErrors([]);
      setStatus(pending.current ? 'pending' : 'saved');
    } catch (e) {
      pending.current ??= graph;
      if (isApiError(e) && e.status === 409) {
        blocked.current = true;
        setConflictVersion(e.currentVersion);
        setStatus('conflict');
      } else if (isApiError(e) && e.status === 422) {
        blocked.current = true;
        setErrors(e.errors);
        setStatus('invalid');
      } else {
        setStatus('failed');
      }
    } finally {
      inFlight.current = false;
    }
    if (pending.current && !blocked.current) void flush();
  }, [queryClient, workflowId]);

  const schedule = useCallback(
    (graph: Graph, { now = false }: { now?: boolean } = {}) => {
      pending.current = graph;
      if (blocked.current && status === 'invalid') blocked.current = false; // a new edit may fix what was refused
      if (!blocked.current) setStatus((s) => (s === 'saving' ? s : 'pending'));
      clearTimeout(timer.current);
      if (now) void flush();
      else timer.current = setTimeout(() => void flush(), SAVE_DEBOUNCE_MS);
    },
    [flush, status],
  );

  /** Saves the post-call fields now, with the graph: the server checks them with it under the same version. */
  const scheduleFields = useCallback(
    (graph: Graph, fields: PostCallField[]) => {
      pendingFields.current = fields;
      schedule(graph, { now: true });
    },
    [schedule],
  );

  /**
   * After a conflict: save this graph on top of the stored version, the one the 409 named (else
   * read again). Saved on anything newer still, it meets another conflict, never overwrites it.
   */
  const keepMine = useCallback(async () => {
    version.current = conflictVersion ?? (await fetchWorkflow(queryClient, workflowId)).version;
    blocked.current = false;
    setConflictVersion(undefined);
    await flush();
  }, [conflictVersion, flush, queryClient, workflowId]);

  /** After a conflict: drop local edits; the caller loads the stored graph. */
  const discard = useCallback((newVersion: number) => {
    pending.current = null;
    pendingFields.current = undefined;
    blocked.current = false;
    version.current = newVersion;
    setConflictVersion(undefined);
    setStatus('saved');
    setErrors([]);
  }, []);

  /** After a conflict: drop local edits and answer the stored workflow to load. */
  const reloadStored = useCallback(async () => {
    const current = await fetchWorkflow(queryClient, workflowId);
    discard(current.version);
    return current;
  }, [discard, queryClient, workflowId]);

  // Unsaved work: flush on unmount and warn before the tab closes.
  useEffect(() => {
    const warn = (e: BeforeUnloadEvent) => {
      if (pending.current || inFlight.current) e.preventDefault();
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      window.removeEventListener('beforeunload', warn);
      if (pending.current && !blocked.current) void flush();
    };
  }, [flush]);

  return { status, errors, conflictVersion, schedule, scheduleFields, flush, keepMine, reloadStored, version };
}

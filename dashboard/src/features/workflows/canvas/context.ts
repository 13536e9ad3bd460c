import { createContext, useContext } from 'react';

/** What a node card may ask the canvas to do (kept out of node data, which is the graph's). */
export interface CanvasActions {
  edit: (nodeId: string) => void;
  remove: (nodeId: string) => void;
  /** Opens the add-step dialog for a new step after this node. */
  addAfter: (nodeId: string) => void;
  /** Removes the edges entering this node (the DELETE button on a target handle). */
  deleteIncoming: (nodeId: string) => void;
  addPath: (conditionalPathId: string) => void;
  /** Writes fields into a node's data at once (what the server already stored, e.g. a contacts source). */
  patchData: (nodeId: string, patch: Record<string, string>) => void;
  /** Zooms onto a node and its neighbours. */
  focus: (nodeId: string) => void;
  /** Nodes whose source handle is used: it is not connectable (spec §4). */
  usedSources: ReadonlySet<string>;
  hasIncoming: ReadonlySet<string>;
  /** What stops each step from running, in words, by node id (graph/validate's problemsByNode). */
  problems: ReadonlyMap<string, readonly string[]>;
  workflowId: string;
  readOnly: boolean;
}

export const CanvasContext = createContext<CanvasActions | null>(null);

export function useCanvas(): CanvasActions {
  const value = useContext(CanvasContext);
  if (!value) throw new Error('useCanvas is used outside the canvas');
  return value;
}

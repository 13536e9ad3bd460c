import type { ComponentType } from 'react';

import type { Data, Kind } from '../../graph';

/** The smallest text a card shows at zoom 1 (meta text, text-xs); body text is text-sm (14 px). */
export const SMALLEST_CARD_TEXT_PX = 12;

export interface NodeViewProps {
  id: string;
  data: Data;
}

export interface NodeEditProps {
  nodeId: string;
  data: Data;
  onChange: (patch: Data) => void;
}

/** One node kind: how its card looks, how it is edited, what a new one holds, what it checks. */
export interface NodeKindSpec {
  kind: Kind;
  /** Its name in menus and the add-step dialog. */
  label: string;
  /** One line for the add-step dialog. */
  hint: string;
  /** Border colour (a CSS colour; the same in both themes, picked to read on either). */
  color: string;
  width: number;
  height: number;
  defaults: () => Data;
  View: ComponentType<NodeViewProps>;
  /** Absent when the kind has nothing to edit. */
  Edit?: ComponentType<NodeEditProps>;
  /** Why the node cannot be edited, shown as a toast instead of the panel. */
  notEditable?: string;
  /** Field-level problems of a draft, keyed by field (the same rules the server applies). */
  validate: (data: Data) => Record<string, string>;
  /** Whether a step can follow it (End Call and Forward Call end the call). */
  terminal?: boolean;
  /** Offered in the add-step dialog. */
  addable: boolean;
}

export const CARD_WIDTH = 386;
export const CARD_HEIGHT = 206;

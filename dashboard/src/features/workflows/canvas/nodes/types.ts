import type { LucideIcon } from 'lucide-react';
import type { ComponentType } from 'react';

import type { Data, Kind } from '../../graph';

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
  /** Its colour: `var(--color-node-<kind>)` (kindColor), a token of src/index.css for each theme. */
  color: string;
  /** Its icon, on the card, in the add-step dialog and on the far-out view. */
  icon: LucideIcon;
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

/**
 * The smallest text on a card, in CSS pixels at zoom 1: every card text is at least `text-sm`
 * (14 px), so the readable zoom (12 px on screen) is 12/14 ≈ 0.86, at which a 386 px card fits
 * a phone's 342 px canvas whole. The canvas opens at a zoom where this is readable.
 */
export const SMALLEST_CARD_TEXT_PX = 14;

/** A kind's colour as a CSS colour (its design token, which follows the theme). */
export function kindColor(kind: Kind): string {
  return `var(--color-node-${kind})`;
}

/** A light tint of a kind's colour on the card surface (behind its icon). */
export function kindTint(color: string): string {
  return `color-mix(in srgb, ${color} 14%, var(--color-surface))`;
}

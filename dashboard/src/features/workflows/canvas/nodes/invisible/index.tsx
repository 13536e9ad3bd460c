import { Circle } from 'lucide-react';

import type { NodeKindSpec } from '../types';

function InvisibleView() {
  return null;
}

/** The placeholder source the rules give a node without an incoming edge; never drawn as a card. */
export const invisibleNode: NodeKindSpec = {
  kind: 'invisible',
  label: 'Placeholder',
  hint: '',
  color: 'transparent',
  icon: Circle,
  width: 1,
  height: 1,
  defaults: () => ({}),
  View: InvisibleView,
  validate: () => ({}),
  addable: false,
};

import type { NodeKindSpec } from '../types';

function StartView() {
  return <span className="text-sm font-semibold text-fg">Start</span>;
}

export const startNode: NodeKindSpec = {
  kind: 'start',
  label: 'Start',
  hint: 'Where every call begins.',
  color: '#16a34a',
  width: 160,
  height: 56,
  defaults: () => ({}),
  View: StartView,
  validate: () => ({}),
  addable: false,
};

import { Play } from 'lucide-react';

import { kindColor, type NodeKindSpec } from '../types';

function StartView() {
  return (
    <p className="flex items-center gap-2 text-sm font-semibold text-fg">
      <Play aria-hidden="true" className="size-4" style={{ color: kindColor('start') }} />
      Start
    </p>
  );
}

export const startNode: NodeKindSpec = {
  kind: 'start',
  label: 'Start',
  hint: 'Where every call begins.',
  color: kindColor('start'),
  icon: Play,
  width: 160,
  height: 56,
  defaults: () => ({}),
  View: StartView,
  validate: () => ({}),
  addable: false,
};

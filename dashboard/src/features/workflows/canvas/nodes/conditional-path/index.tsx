import { Plus } from 'lucide-react';

import { Button } from '../../../../../components/ui/button';
import { useCanvas } from '../../context';
import { LabelField } from '../parts';
import type { NodeEditProps, NodeKindSpec, NodeViewProps } from '../types';

function ConditionalView({ id }: NodeViewProps) {
  const canvas = useCanvas();
  return (
    <div className="flex flex-1 flex-col items-center justify-center gap-2 text-center">
      <p className="text-sm text-fg-muted">Routes users down different paths</p>
      {!canvas.readOnly && (
        <Button size="sm" variant="secondary" className="nodrag" onClick={() => canvas.addPath(id)}>
          <Plus aria-hidden="true" />
          Add Path
        </Button>
      )}
    </div>
  );
}

function ConditionalEdit(props: NodeEditProps) {
  return <LabelField {...props} />;
}

export const conditionalPathNode: NodeKindSpec = {
  kind: 'conditional-path',
  label: 'Conditional Path',
  hint: 'Splits the flow by what the customer answers (two paths or more).',
  color: '#ca8a04',
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Conditional Path' }),
  View: ConditionalView,
  Edit: ConditionalEdit,
  validate: () => ({}),
  addable: true,
};

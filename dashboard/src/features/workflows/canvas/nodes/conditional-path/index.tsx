import { useNodeConnections } from '@xyflow/react';
import { Plus, Split } from 'lucide-react';

import { Button } from '../../../../../components/ui/button';
import { count } from '../../../../../lib/plural';
import { useCanvas } from '../../context';
import { LabelField } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';

function ConditionalView({ id }: NodeViewProps) {
  const canvas = useCanvas();
  const paths = useNodeConnections({ id, handleType: 'source' }).length;
  return (
    <div className="flex flex-1 flex-col gap-2">
      <div>
        <p className="text-sm text-fg-soft">Branches on what the customer says</p>
        <p className="text-sm text-fg-muted">{count(paths, 'path')}</p>
      </div>
      {!canvas.readOnly && (
        <Button variant="secondary" className="nodrag self-start" onClick={() => canvas.addPath(id)}>
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
  color: kindColor('conditional-path'),
  icon: Split,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Conditional Path' }),
  View: ConditionalView,
  Edit: ConditionalEdit,
  validate: () => ({}),
  addable: true,
};

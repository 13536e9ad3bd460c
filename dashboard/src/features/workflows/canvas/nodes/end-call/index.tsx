import { LabelField, SpokenLineField } from '../parts';
import type { NodeEditProps, NodeKindSpec } from '../types';

function EndCallView() {
  return <p className="flex flex-1 items-center justify-center text-sm text-fg-muted">Triggers an End Call</p>;
}

function EndCallEdit({ data, onChange }: NodeEditProps) {
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      <SpokenLineField data={data} onChange={onChange} placeholder="Thank you for your time, {{firstName}}. Goodbye." />
    </div>
  );
}

export const endCallNode: NodeKindSpec = {
  kind: 'end-call',
  label: 'End Call',
  hint: 'The agent says goodbye and hangs up.',
  color: '#dc2626',
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'End Call' }),
  View: EndCallView,
  Edit: EndCallEdit,
  validate: () => ({}),
  terminal: true,
  addable: true,
};

import { PhoneOff } from 'lucide-react';

import { str } from '../../../graph';
import { LabelField, SpokenLine, SpokenLineField } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';

function EndCallView({ data }: NodeViewProps) {
  if (str(data, 'say').trim()) return <SpokenLine data={data} />;
  return <p className="text-sm text-fg-muted">Says goodbye and hangs up.</p>;
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
  color: kindColor('end-call'),
  icon: PhoneOff,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'End Call' }),
  View: EndCallView,
  Edit: EndCallEdit,
  validate: () => ({}),
  terminal: true,
  addable: true,
};

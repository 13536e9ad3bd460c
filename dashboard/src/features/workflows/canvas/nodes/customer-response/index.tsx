import { MessageCircleReply } from 'lucide-react';

import { str, type Data } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField, Lead, TextField } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';

function CustomerView({ id, data }: NodeViewProps) {
  const description = str(data, 'description');
  if (!description.trim()) return <EmptyNote id={id} message="No Customer Response" action="Add Customer Response" />;
  return <Lead lead="When the customer says">{description}</Lead>;
}

function validate(data: Data) {
  const out = dataProblems('customer-response', data);
  if (!str(data, 'description').trim()) out['description'] ??= 'No Customer Response: describe what the customer says on this path.';
  return out;
}

function CustomerEdit({ data, onChange }: NodeEditProps) {
  const errors = validate(data);
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      <TextField label="What the customer says on this path" field="description" multiline data={data} onChange={onChange} error={errors['description']} placeholder="The customer wants to reschedule." />
    </div>
  );
}

export const customerResponseNode: NodeKindSpec = {
  kind: 'customer-response',
  label: 'Customer Response',
  hint: 'What the customer answers; the agent listens for it.',
  color: kindColor('customer-response'),
  icon: MessageCircleReply,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Customer Response', description: '' }),
  View: CustomerView,
  Edit: CustomerEdit,
  validate,
  addable: true,
};

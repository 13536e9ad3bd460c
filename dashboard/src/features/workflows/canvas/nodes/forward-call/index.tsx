import { PhoneForwarded } from 'lucide-react';

import { regionOf, str, type Data } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField, SpokenLine, SpokenLineField, TextField } from '../parts';
import { Flag } from './Flag';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';

function ForwardView({ id, data }: NodeViewProps) {
  const number = str(data, 'destinationPhoneNumber');
  if (!number) return <EmptyNote id={id} message="No destination numbers found. Add a valid number to run your workflow." action="Add Destination Number" />;
  const region = regionOf(number);
  return (
    <div className="flex min-h-0 flex-col gap-1.5">
      <div>
        <p className="text-sm font-medium text-fg-subtle">Forwards the call to</p>
        <p className="flex items-center gap-2 text-base font-semibold text-fg tabular-nums">
          {region && <Flag region={region} />}
          {number}
        </p>
      </div>
      <SpokenLine data={data} lines={2} />
    </div>
  );
}

function validate(data: Data) {
  const out = dataProblems('forward-call', data);
  if (!str(data, 'destinationPhoneNumber')) out['destinationPhoneNumber'] ??= 'No destination numbers found. Add a valid number to run your workflow.';
  return out;
}

function ForwardEdit({ data, onChange }: NodeEditProps) {
  const errors = validate(data);
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      <TextField label="Destination number" field="destinationPhoneNumber" data={data} onChange={onChange} error={errors['destinationPhoneNumber']} placeholder="+14155550123" description="In E.164: a plus, the country code and the number." />
      <SpokenLineField data={data} onChange={onChange} placeholder="Please hold while I connect you." />
    </div>
  );
}

export const forwardCallNode: NodeKindSpec = {
  kind: 'forward-call',
  label: 'Forward Call',
  hint: 'Hands the call to a person at another number.',
  color: kindColor('forward-call'),
  icon: PhoneForwarded,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Forward Call', destinationPhoneNumber: '' }),
  View: ForwardView,
  Edit: ForwardEdit,
  validate,
  terminal: true,
  addable: true,
};

import { Field } from '../../../../../components/ui/input';
import { Select } from '../../../../../components/ui/select';
import { STAGES, str, type Data } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField } from '../parts';
import type { NodeEditProps, NodeKindSpec, NodeViewProps } from '../types';

const STAGE_LABELS: Record<string, string> = Object.fromEntries(STAGES.map((s) => [s, s.replace(/(^|\s)\S/g, (c) => c.toUpperCase())]));

function StageView({ id, data }: NodeViewProps) {
  const stage = str(data, 'lifeCycleStage');
  if (!stage) return <EmptyNote id={id} message="No lifecycle stage chosen." action="Choose Stage" />;
  return (
    <p className="flex flex-1 items-center gap-1.5 text-sm text-fg-soft">
      Life Cycle Stage: <span className="font-semibold text-fg">{STAGE_LABELS[stage] ?? stage}</span>
    </p>
  );
}

function validate(data: Data) {
  const out = dataProblems('hubspot-lifecycle-stage', data);
  if (!str(data, 'lifeCycleStage')) out['lifeCycleStage'] ??= 'Choose the lifecycle stage to set.';
  return out;
}

function StageEdit({ data, onChange }: NodeEditProps) {
  const errors = validate(data);
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      <Field label="Life Cycle Stage" error={errors['lifeCycleStage']}>
        {(ids) => <Select {...ids} value={str(data, 'lifeCycleStage')} onValueChange={(v) => onChange({ lifeCycleStage: v })} options={STAGES.map((s) => ({ value: s, label: STAGE_LABELS[s]! }))} />}
      </Field>
      <p className="text-xs text-fg-subtle">The stage is written to the contact in HubSpot once the HubSpot integration is built; until then the step is recorded with the call.</p>
    </div>
  );
}

export const lifecycleStageNode: NodeKindSpec = {
  kind: 'hubspot-lifecycle-stage',
  label: 'HubSpot Life Cycle Stage',
  hint: 'Moves the contact to a lifecycle stage.',
  color: '#f97316',
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Life Cycle Stage' }),
  View: StageView,
  Edit: StageEdit,
  validate,
  addable: true,
};

import { TrendingUp } from 'lucide-react';
import { useQuery } from '@tanstack/react-query';

import { Field } from '../../../../../components/ui/input';
import { Select } from '../../../../../components/ui/select';
import { connectedAppsQueryOptions, connectedHubspotApps, hubspotStagesQueryOptions } from '../../../../apps/queries';
import { useCurrentTeam } from '../../../../team/TeamContext';
import { STAGES, str, type Data } from '../../../graph';
import { dataProblems } from '../fieldRules';
import { EmptyNote, LabelField } from '../parts';
import { kindColor, type NodeEditProps, type NodeKindSpec, type NodeViewProps } from '../types';

const STAGE_LABELS: Record<string, string> = Object.fromEntries(STAGES.map((s) => [s, s.replace(/(^|\s)\S/g, (c) => c.toUpperCase())]));

function StageView({ id, data }: NodeViewProps) {
  const stage = str(data, 'lifeCycleStage');
  if (!stage) return <EmptyNote id={id} message="No lifecycle stage chosen." action="Choose Stage" />;
  return (
    <div>
      <p className="text-sm font-medium text-fg-subtle">Sets the HubSpot lifecycle stage to</p>
      <p className="text-base font-semibold text-fg">{STAGE_LABELS[stage] ?? stage}</p>
    </div>
  );
}

function validate(data: Data) {
  const out = dataProblems('hubspot-lifecycle-stage', data);
  if (!str(data, 'lifeCycleStage')) out['lifeCycleStage'] ??= 'Choose the lifecycle stage to set.';
  return out;
}

/**
 * HubSpot's internal stage values for Betty's stages (the contract's mapping: the two qualified
 * leads have their own names; every other built-in value is Betty's stage itself). A portal's
 * custom stages have numeric values Betty's graph does not hold yet.
 */
const HUBSPOT_TO_BETTY: Record<string, string> = { marketingqualifiedlead: 'marketing lead', salesqualifiedlead: 'sales lead' };

function bettyStage(hubspotId: string): string | undefined {
  const s = HUBSPOT_TO_BETTY[hubspotId] ?? hubspotId;
  return (STAGES as readonly string[]).includes(s) ? s : undefined;
}

/** The stage options: the connected portal's own stages and labels (polled 60 s), else Betty's list. */
function useStageOptions(data: Data) {
  const team = useCurrentTeam();
  const apps = useQuery(connectedAppsQueryOptions(team.id));
  const hubspot = connectedHubspotApps(apps.data);
  const appId = str(data, 'connectedAppId') || hubspot[0]?.id || '';
  const stages = useQuery({ ...hubspotStagesQueryOptions(team.id, appId), enabled: appId !== '', retry: false });
  if (!stages.data) return { options: STAGES.map((s) => ({ value: s, label: STAGE_LABELS[s]! })), fromPortal: false, custom: 0, appId, apps: hubspot };
  const options: { value: string; label: string }[] = [];
  let custom = 0;
  for (const st of stages.data) {
    const value = bettyStage(st.id);
    if (value && !options.some((o) => o.value === value)) options.push({ value, label: st.name });
    else if (!value) custom++;
  }
  return { options, fromPortal: true, custom, appId, apps: hubspot };
}

function StageEdit({ data, onChange }: NodeEditProps) {
  const errors = validate(data);
  const { options, fromPortal, custom, appId, apps } = useStageOptions(data);
  return (
    <div className="space-y-4">
      <LabelField data={data} onChange={onChange} />
      {apps.length > 1 && (
        <Field label="HubSpot portal">
          {(ids) => <Select {...ids} value={appId || undefined} onValueChange={(v) => onChange({ connectedAppId: v })} options={apps.map((a) => ({ value: a.id, label: a.name || a.id }))} />}
        </Field>
      )}
      <Field label="Life Cycle Stage" error={errors['lifeCycleStage']}>
        {(ids) => <Select {...ids} value={str(data, 'lifeCycleStage')} onValueChange={(v) => onChange({ lifeCycleStage: v })} options={options} />}
      </Field>
      <p className="text-xs text-fg-subtle">
        {fromPortal ? 'The stages of your HubSpot portal. ' : 'Connect HubSpot to pick from your portal’s own stages. '}
        After the call, the contact&apos;s stage is written to HubSpot when the contact came from HubSpot; a failed write is retried and shown on the call log.
        {custom > 0 && ` ${custom === 1 ? 'One custom stage' : `${custom} custom stages`} of the portal cannot be chosen yet.`}
      </p>
    </div>
  );
}

export const lifecycleStageNode: NodeKindSpec = {
  kind: 'hubspot-lifecycle-stage',
  label: 'HubSpot Life Cycle Stage',
  hint: 'Moves the contact to a lifecycle stage.',
  color: kindColor('hubspot-lifecycle-stage'),
  icon: TrendingUp,
  width: 386,
  height: 206,
  defaults: () => ({ nodeLabel: 'Life Cycle Stage' }),
  View: StageView,
  Edit: StageEdit,
  validate,
  addable: true,
};

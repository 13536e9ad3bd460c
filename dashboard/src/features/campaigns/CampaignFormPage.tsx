import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';

import type { CallDirection, Campaign, CampaignPriority, CampaignPurpose, CampaignSettableStatus, Organization } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { Button } from '../../components/ui/button';
import { Card, CardBody } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/input';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { can } from '../../lib/roles';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { STATUS_LABELS } from './filters';
import { DIRECTION_LABELS, PRIORITY_LABELS, PURPOSES } from './labels';
import { campaignQueryOptions, createCampaignMutationOptions, updateCampaignMutationOptions } from './queries';

const DIRECTIONS = (['inbound', 'outbound'] as const).map((value) => ({ value, label: DIRECTION_LABELS[value] }));
const PRIORITIES = (['urgent', 'high', 'medium', 'low'] as const).map((value) => ({ value, label: PRIORITY_LABELS[value] }));
const PURPOSE_OPTIONS = PURPOSES.map((value) => ({ value, label: value }));
const SETTABLE: CampaignSettableStatus[] = ['draft', 'active', 'paused', 'completed'];
const STATUS_OPTIONS = SETTABLE.map((value) => ({ value, label: STATUS_LABELS[value] }));

/** /dashboard/campaigns/create and /dashboard/campaigns/:campaignId/edit. */
export default function CampaignFormPage() {
  const team = useCurrentTeam();
  const { campaignId } = useParams();
  const campaign = useQuery({ ...campaignQueryOptions(campaignId ?? ''), enabled: Boolean(campaignId) });
  const title = campaignId ? 'Edit campaign' : 'New campaign';
  const crumbs = [{ label: 'Campaigns', to: teamPath('/dashboard/campaigns', team.id) }];
  const edit = can(team.myRole, 'editCalling');

  let body;
  if (!edit.allowed) body = <RoleNotice>{edit.reason}</RoleNotice>;
  else if (campaignId && campaign.isPending) body = <SkeletonText label="Loading the campaign…" lines={6} />;
  else if (campaignId && campaign.isError) body = <ErrorState error={campaign.error} onRetry={() => void campaign.refetch()} />;
  else body = <CampaignForm key={campaign.data?.id ?? 'new'} team={team} campaign={campaign.data} />;

  return (
    <div className="mx-auto max-w-2xl">
      <PageHeader title={title} breadcrumbs={campaign.data ? [...crumbs, { label: campaign.data.name, to: teamPath(`/dashboard/campaigns/${campaign.data.id}/agent-profile`, team.id) }] : crumbs} description={campaignId ? undefined : 'Name it and say which way it calls. Agents, numbers and hours come next.'} />
      {body}
    </div>
  );
}

function CampaignForm({ team, campaign }: { team: Organization; campaign: Campaign | undefined }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation(createCampaignMutationOptions(queryClient));
  const update = useMutation(updateCampaignMutationOptions(queryClient));
  const [name, setName] = useState(campaign?.name ?? '');
  const [type, setType] = useState<CallDirection>(campaign?.type ?? 'outbound');
  const [priority, setPriority] = useState<CampaignPriority>(campaign?.priority ?? 'medium');
  const [purpose, setPurpose] = useState<CampaignPurpose>(campaign?.purpose ?? 'Other');
  const [status, setStatus] = useState<CampaignSettableStatus>(campaign && campaign.status !== 'error' ? campaign.status : 'draft');
  const [nameError, setNameError] = useState<string | undefined>();
  const failure = campaign ? update.error : create.error;
  const serverError = isApiError(failure) ? failure : undefined;
  const hasWorkflows = (campaign?.workflows.length ?? 0) > 0;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!name.trim()) {
      setNameError('Give the campaign a name.');
      return focusFirstInvalid(event.currentTarget);
    }
    setNameError(undefined);
    const fields = { name: name.trim(), type, priority, purpose };
    const onError = (error: unknown) => {
      if (!(isApiError(error) && error.errors.length > 0)) toast.error(error);
    };
    if (campaign) {
      const body = { ...fields, ...(status !== campaign.status ? { status } : {}) };
      update.mutate(
        { id: campaign.id, body },
        {
          onSuccess: (saved) => {
            toast.success(`"${saved.name}" was saved.`);
            void navigate(teamPath(`/dashboard/campaigns/${saved.id}/agent-profile`, team.id));
          },
          onError,
        },
      );
    } else {
      create.mutate(
        { organizationId: team.id, ...fields },
        {
          onSuccess: (created) => {
            toast.success(`"${created.name}" was created as a draft.`);
            void navigate(teamPath(`/dashboard/campaigns/${created.id}/agent-profile`, team.id));
          },
          onError,
        },
      );
    }
  }

  return (
    <Card>
      <CardBody>
        <form onSubmit={submit} noValidate className="space-y-4">
          <Field label="Name" error={nameError ?? serverError?.fieldError('name')}>
            {(ids) => <Input {...ids} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />}
          </Field>
          <Field label="Direction" description={hasWorkflows ? 'Fixed: the campaign has workflows, which share its direction.' : 'Inbound answers calls to its number; outbound calls your contacts.'} error={serverError?.fieldError('type')}>
            {(ids) => <Select {...ids} value={type} onValueChange={setType} options={DIRECTIONS} disabled={hasWorkflows} />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Priority" error={serverError?.fieldError('priority')}>
              {(ids) => <Select {...ids} value={priority} onValueChange={setPriority} options={PRIORITIES} />}
            </Field>
            <Field label="Purpose" error={serverError?.fieldError('purpose')}>
              {(ids) => <Select {...ids} value={purpose} onValueChange={setPurpose} options={PURPOSE_OPTIONS} />}
            </Field>
          </div>
          {campaign && (
            <Field label="Status" description="Active needs an active workflow and a phone number; the server says which is missing." error={serverError?.fieldError('status')}>
              {(ids) => <Select {...ids} value={status} onValueChange={setStatus} options={STATUS_OPTIONS} />}
            </Field>
          )}
          <div className="flex flex-wrap justify-end gap-2 pt-2">
            <Button variant="secondary" onClick={() => void navigate(-1)}>
              Cancel
            </Button>
            <Button type="submit" busy={create.isPending || update.isPending} busyLabel="Saving…">
              {campaign ? 'Save campaign' : 'Create campaign'}
            </Button>
          </div>
        </form>
      </CardBody>
    </Card>
  );
}

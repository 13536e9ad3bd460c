import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Phone } from 'lucide-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import type { Campaign, Organization, PhoneNumber } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { Field } from '../../components/ui/input';
import { RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonText } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { can } from '../../lib/roles';
import { phoneNumbersQueryOptions } from '../phone-numbers/queries';
import { teamPath } from '../team/TeamContext';
import { inboundAssignmentsQueryOptions, updateCampaignMutationOptions } from './queries';

/** Enough for a team's numbers on one picker. */
const PICKER_SIZE = 100;

/** Why a number cannot be this campaign's, or null when it can. */
export function numberUnusableReason(number: PhoneNumber, campaign: Campaign): string | null {
  if (campaign.type === 'inbound' && number.isNonTelnyxNumber) return 'a verified number of your own places calls only; it cannot answer';
  if (number.status === 'suspended') return 'suspended: its monthly subscription is unpaid';
  return null;
}

export function CampaignPhoneTab({ team, campaign }: { team: Organization; campaign: Campaign }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const numbers = useQuery(phoneNumbersQueryOptions(team.id, 1, PICKER_SIZE));
  const update = useMutation(updateCampaignMutationOptions(queryClient));
  const [chosen, setChosen] = useState<string | undefined>(campaign.phoneNumberId ?? undefined);
  const edit = can(team.myRole, 'editCalling');
  const inbound = campaign.type === 'inbound';
  const taken = useQuery({ ...inboundAssignmentsQueryOptions(chosen ?? ''), enabled: inbound && Boolean(chosen) && chosen !== campaign.phoneNumberId });
  const otherInbound = taken.data?.data.find((a) => a.campaignId !== campaign.id);

  function assign(phoneNumberId: string | null) {
    update.mutate(
      { id: campaign.id, body: { phoneNumberId } },
      {
        onSuccess: (saved) => toast.success(saved.phoneNumber ? `${saved.phoneNumber} is now this campaign’s number.` : 'The campaign has no number now.'),
        onError: (error) => toast.error(error),
      },
    );
  }

  if (numbers.isPending) return <SkeletonText label="Loading your numbers…" lines={4} />;
  if (numbers.isError) return <ErrorState error={numbers.error} onRetry={() => void numbers.refetch()} />;
  if (numbers.data.data.length === 0)
    return (
      <EmptyState
        icon={<Phone />}
        title="Your team has no phone numbers yet"
        action={<Button onClick={() => void navigate(teamPath('/dashboard/phone-numbers', team.id))}>Get a number</Button>}
      >
        Buy a number, or verify one you already own, then come back to give it to this campaign.
      </EmptyState>
    );

  const options = numbers.data.data.map((n) => {
    const reason = numberUnusableReason(n, campaign);
    return { value: n.id, label: reason ? `${n.phoneNumber} (${reason})` : n.phoneNumber, disabled: reason !== null };
  });

  return (
    <Card>
      <CardHeader
        title="Phone number"
        description={inbound ? 'The number this campaign answers. A number answers for one inbound campaign at a time.' : 'The caller ID of this campaign’s calls (a workflow’s own number wins over it).'}
      />
      <CardBody className="space-y-4">
        <p className="text-sm text-fg-muted">
          Now: {campaign.phoneNumber ? <span className="font-mono text-fg">{campaign.phoneNumber}</span> : 'no number.'}
        </p>
        {!edit.allowed ? (
          <RoleNotice>{edit.reason}</RoleNotice>
        ) : (
          <>
            <Field label="Number" description={otherInbound ? undefined : 'Numbers of your team; buy or verify more under Phone numbers.'} error={otherInbound ? `It already answers for the inbound campaign “${otherInbound.campaignName}”; free it there first.` : undefined}>
              {(ids) => <Select {...ids} value={chosen} onValueChange={setChosen} options={options} placeholder="Choose a number" />}
            </Field>
            <div className="flex flex-wrap justify-end gap-2">
              {campaign.phoneNumberId && (
                <Button variant="secondary" onClick={() => assign(null)} busy={update.isPending && update.variables?.body.phoneNumberId === null}>
                  Remove number
                </Button>
              )}
              <Button onClick={() => chosen && assign(chosen)} disabled={!chosen || chosen === campaign.phoneNumberId || Boolean(otherInbound)} busy={update.isPending && update.variables?.body.phoneNumberId !== null} busyLabel="Assigning…">
                Assign number
              </Button>
            </div>
          </>
        )}
      </CardBody>
    </Card>
  );
}

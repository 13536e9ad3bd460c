import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import type { Campaign, Organization } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Dialog, DialogClose, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast-store';
import { agentsQueryOptions, updateAgentMutationOptions } from '../agents/queries';

/** The most agents the picker lists (the contract's largest page). */
const PICKER_SIZE = 100;

/**
 * Adds one of the team's agents to the campaign. An agent belongs to one campaign at a time, so
 * an agent of another campaign moves here (and, if it was active there, arrives inactive).
 */
export function AttachAgentDialog({ team, campaign, open, onOpenChange }: { team: Organization; campaign: Campaign; open: boolean; onOpenChange: (open: boolean) => void }) {
  const queryClient = useQueryClient();
  const agents = useQuery({ ...agentsQueryOptions(team.id, 1, PICKER_SIZE), enabled: open });
  const attach = useMutation(updateAgentMutationOptions(queryClient));
  const [agentId, setAgentId] = useState<string>();
  const choices = (agents.data?.data ?? []).filter((a) => a.campaignId !== campaign.id);
  const chosen = choices.find((a) => a.id === agentId);

  const submit = () => {
    if (!chosen) return;
    attach.mutate(
      { id: chosen.id, body: { organizationId: team.id, campaignId: campaign.id } },
      {
        onSuccess: (saved) => {
          toast.success(`${saved.name} is now an agent of ${campaign.name}.`);
          setAgentId(undefined);
          onOpenChange(false);
        },
        onError: (e) => toast.error(e),
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent title="Add an existing agent" description={`Pick one of ${team.name}’s agents to speak on the calls of ${campaign.name}.`}>
        {agents.isPending ? (
          <p className="text-sm text-fg-muted">Loading agents…</p>
        ) : choices.length === 0 ? (
          <p className="text-sm text-fg-muted">Every agent of the team is already in this campaign. Create a new one instead.</p>
        ) : (
          <Field
            label="Agent"
            description={
              chosen?.campaignId
                ? `${chosen.name} belongs to another campaign: an agent is in one campaign at a time, so it moves here${chosen.status === 'active' ? ' and arrives inactive' : ''}.`
                : 'Activate it afterwards to make it the one that takes the campaign’s calls.'
            }
          >
            {(ids) => (
              <Select
                {...ids}
                value={agentId}
                onValueChange={setAgentId}
                placeholder="Choose an agent"
                options={choices.map((a) => ({ value: a.id, label: a.campaignId ? `${a.name} (in another campaign)` : a.name }))}
              />
            )}
          </Field>
        )}
        <DialogFooter>
          <DialogClose asChild>
            <Button variant="secondary">Cancel</Button>
          </DialogClose>
          <Button onClick={submit} disabled={!chosen} busy={attach.isPending} busyLabel="Adding…">
            Add to campaign
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

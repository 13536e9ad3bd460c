import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import type { ApiKey, Organization, TeamMember } from '../../api/gen/model';
import { Checkbox } from '../../components/ui/checkbox';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { toast } from '../../components/ui/toast-store';
import { can } from '../../lib/roles';
import { apiKeysQueryOptions } from '../api-keys/queries';
import { removeMemberMutationOptions } from './queries';

/** The team's keys this member made (and that are still theirs to lose). */
function keysMadeBy(keys: readonly ApiKey[], member: TeamMember): ApiKey[] {
  if (!member.userId) return [];
  return keys.filter((k) => k.createdBy?.id === member.userId && k.createdByStatus !== 'removed');
}

function keysPhrase(count: number): string {
  return count === 1 ? '1 API key' : `${count} API keys`;
}

interface RemoveMemberDialogProps {
  team: Organization;
  member: TeamMember;
  /** The member is the person using the dashboard, leaving the team. */
  leaving: boolean;
  onClose: () => void;
  onRemoved: () => void;
}

/**
 * Asks before removing a member (or leaving), and whether the API keys they made go with them:
 * revoked by default, since a key never does more than its maker may; kept on purpose when
 * something the team runs depends on one.
 */
export function RemoveMemberDialog({ team, member, leaving, onClose, onRemoved }: RemoveMemberDialogProps) {
  const queryClient = useQueryClient();
  const remove = useMutation(removeMemberMutationOptions(queryClient));
  const [revoke, setRevoke] = useState(true);
  // Only people who may manage keys can list them; for the others the count stays unknown.
  const mayListKeys = can(team.myRole, 'manageApiKeys').allowed;
  const invited = member.status === 'invited';
  const keys = useQuery({ ...apiKeysQueryOptions(team.id), enabled: mayListKeys && !invited });
  const count = keys.data ? keysMadeBy(keys.data, member).length : undefined;
  const whose = leaving ? 'your' : 'their';
  const name = member.name ?? member.email;

  let title: string;
  let description: string;
  let confirmLabel: string;
  if (leaving) {
    title = `Leave ${team.name}?`;
    description = 'You lose access to the team until someone invites you again.';
    confirmLabel = 'Leave team';
  } else if (invited) {
    title = `Cancel the invitation to ${member.email}?`;
    description = 'The invitation link stops working. You can invite them again later.';
    confirmLabel = 'Cancel invitation';
  } else {
    title = `Remove ${name}?`;
    description = 'They lose access to the team at once. You can invite them again later.';
    confirmLabel = 'Remove member';
  }

  // Offer the choice unless we know there is nothing to choose about.
  const offerKeys = !invited && count !== 0;
  const keysLabel = count === undefined ? `Also revoke the API keys ${leaving ? 'you' : 'they'} made (recommended)` : `Also revoke ${whose} ${keysPhrase(count)} (recommended)`;

  function confirm() {
    remove.mutate(
      { organizationId: team.id, email: member.email, keepApiKeys: offerKeys && !revoke },
      {
        onSuccess: (result) => {
          const revoked = result.revokedApiKeys > 0 ? ` ${keysPhrase(result.revokedApiKeys)} ${result.revokedApiKeys === 1 ? 'was' : 'were'} revoked.` : '';
          const done = leaving ? `You left ${team.name}.` : invited ? `The invitation to ${member.email} was cancelled.` : `${name} was removed.`;
          toast.success(done + revoked);
          onRemoved();
          onClose();
        },
        onError: (error) => toast.error(error),
      },
    );
  }

  return (
    <ConfirmDialog open onOpenChange={(open) => !open && onClose()} title={title} description={description} confirmLabel={confirmLabel} busy={remove.isPending} onConfirm={confirm}>
      {offerKeys && (
        <Checkbox
          label={keysLabel}
          description={
            revoke
              ? `Anything still using ${count === 1 ? 'it' : 'them'} stops working at once.`
              : `The keys keep working with the role they have, marked as made by someone who has left. Revoke them on the API keys page when nothing needs them.`
          }
          checked={revoke}
          onCheckedChange={setRevoke}
        />
      )}
    </ConfirmDialog>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';

import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { toast } from '../../components/ui/toast-store';
import { ROLE_LABELS } from '../../lib/roles';
import { acceptPendingInvitationMutationOptions, pendingInvitationsQueryOptions } from './queries';

const DISMISSED_KEY = 'betty.dismissedInvitations';

function dismissedIds(): string[] {
  try {
    return JSON.parse(window.sessionStorage.getItem(DISMISSED_KEY) ?? '[]') as string[];
  } catch {
    return [];
  }
}

/** After sign-in, offers the invitations waiting for this user's address (once per browser session). */
export function PendingInvitationsDialog({ onJoined }: { onJoined: (teamId: string) => void }) {
  const queryClient = useQueryClient();
  // A failure here is not worth interrupting anyone for: the popup just does not appear.
  const invitations = useQuery({ ...pendingInvitationsQueryOptions(), retry: false });
  const accept = useMutation(acceptPendingInvitationMutationOptions(queryClient));
  const [dismissed, setDismissed] = useState<string[]>(dismissedIds);

  const waiting = (invitations.data ?? []).filter((i) => !dismissed.includes(i.id));

  function dismiss(ids: string[]) {
    const next = [...dismissed, ...ids];
    setDismissed(next);
    try {
      window.sessionStorage.setItem(DISMISSED_KEY, JSON.stringify(next));
    } catch {
      // Without session storage the popup may show again after a reload; harmless.
    }
  }

  return (
    <Dialog open={waiting.length > 0} onOpenChange={(open) => !open && dismiss(waiting.map((i) => i.id))}>
      <DialogContent title={waiting.length === 1 ? 'You have an invitation' : 'You have invitations'} description="Join a team to work on its agents, campaigns and calls.">
        <ul className="divide-y divide-line-soft">
          {waiting.map((invitation) => (
            <li key={invitation.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
              <div className="min-w-0">
                <p className="font-medium text-fg">{invitation.organizationName}</p>
                <p className="text-sm text-fg-muted">
                  As {ROLE_LABELS[invitation.role]}
                  {invitation.invitedBy ? `, invited by ${invitation.invitedBy.name ?? invitation.invitedBy.email}` : ''}
                </p>
              </div>
              <Button
                size="sm"
                busy={accept.isPending && accept.variables === invitation.organizationMemberId}
                busyLabel="Joining…"
                onClick={() =>
                  accept.mutate(invitation.organizationMemberId, {
                    onSuccess: () => {
                      toast.success(`You joined ${invitation.organizationName}.`);
                      dismiss([invitation.id]);
                      onJoined(invitation.organizationId);
                    },
                    onError: (error) => toast.error(error),
                  })
                }
              >
                Join {invitation.organizationName}
              </Button>
            </li>
          ))}
        </ul>
        <DialogFooter>
          <Button variant="secondary" onClick={() => dismiss(waiting.map((i) => i.id))}>
            Not now
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

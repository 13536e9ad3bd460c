import { useQueryClient } from '@tanstack/react-query';
import { Navigate } from 'react-router';

import { toast } from '../../components/ui/toast-store';
import { useTokenAction } from '../../lib/useTokenAction';
import { useSignedIn } from '../auth/session';
import { LinkActionPage } from './LinkActionPage';
import { acceptInvitationMutationOptions } from './queries';
import { teamPath } from './TeamContext';

export default function InvitePage() {
  const queryClient = useQueryClient();
  const base = acceptInvitationMutationOptions(queryClient);
  const accept = useTokenAction({
    action: 'accept-invitation',
    params: ['inviteToken', 't'],
    ready: useSignedIn(),
    mutation: {
      ...base,
      onSuccess: async () => {
        await base.onSuccess();
        toast.success('You joined the team.');
      },
    },
  });
  if (accept.data) return <Navigate to={teamPath('/dashboard', accept.data.organizationId)} replace />;
  return (
    <LinkActionPage
      title="Join a team"
      pitch="You have been invited to a team on Betty. Sign in, or create an account with the invited address, to join it."
      missingToken="This invitation link has no token. Copy the whole link and open it again."
      working="Joining the team…"
      status={accept.status}
      error={accept.error}
    />
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';

import { toast } from '../../components/ui/toast-store';
import { LinkActionPage } from './LinkActionPage';
import { acceptInvitationMutationOptions } from './queries';
import { teamPath } from './TeamContext';

export default function InvitePage() {
  const [params] = useSearchParams();
  const token = params.get('inviteToken') ?? params.get('t') ?? '';
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const base = acceptInvitationMutationOptions(queryClient);
  const accept = useMutation({
    ...base,
    onSuccess: async (member) => {
      await base.onSuccess();
      toast.success('You joined the team.');
      void navigate(teamPath('/dashboard', member.organizationId), { replace: true });
    },
  });
  return (
    <LinkActionPage
      title="Join a team"
      pitch="You have been invited to a team on Betty. Sign in, or create an account with the invited address, to join it."
      token={token}
      missingToken="This invitation link has no token. Open the link from the e-mail again."
      run={accept.mutate}
      status={accept.status}
      error={accept.error}
      working="Joining the team…"
    />
  );
}

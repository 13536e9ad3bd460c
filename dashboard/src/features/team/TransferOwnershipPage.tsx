import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useSearchParams } from 'react-router';

import { toast } from '../../components/ui/toast-store';
import { LinkActionPage } from './LinkActionPage';
import { confirmTransferMutationOptions } from './queries';
import { teamPath } from './TeamContext';

export default function TransferOwnershipPage() {
  const [params] = useSearchParams();
  const token = params.get('transferOwnershipToken') ?? '';
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const base = confirmTransferMutationOptions(queryClient);
  const confirm = useMutation({
    ...base,
    onSuccess: async (team) => {
      await base.onSuccess();
      toast.success(`You are now the owner of ${team.name}.`);
      void navigate(teamPath('/dashboard/team', team.id), { replace: true });
    },
  });
  return (
    <LinkActionPage
      title="Take over a team"
      pitch="You have been asked to become the owner of a team on Betty. Sign in with the address the e-mail was sent to, to accept."
      token={token}
      missingToken="This link has no transfer token. Open the link from the e-mail again."
      run={confirm.mutate}
      status={confirm.status}
      error={confirm.error}
      working="Making you the owner…"
    />
  );
}

import { useQueryClient } from '@tanstack/react-query';
import { Navigate } from 'react-router';

import { toast } from '../../components/ui/toast-store';
import { useTokenAction } from '../../lib/useTokenAction';
import { useSignedIn } from '../auth/session';
import { LinkActionPage } from './LinkActionPage';
import { confirmTransferMutationOptions } from './queries';
import { teamPath } from './TeamContext';

export default function TransferOwnershipPage() {
  const queryClient = useQueryClient();
  const base = confirmTransferMutationOptions(queryClient);
  const confirm = useTokenAction({
    action: 'confirm-transfer',
    params: ['transferOwnershipToken'],
    ready: useSignedIn(),
    mutation: {
      ...base,
      onSuccess: async (team) => {
        await base.onSuccess();
        toast.success(`You are now the owner of ${team.name}.`);
      },
    },
  });
  if (confirm.data) return <Navigate to={teamPath('/dashboard/team', confirm.data.id)} replace />;
  return (
    <LinkActionPage
      title="Take over a team"
      pitch="You have been asked to become the owner of a team on Betty. Sign in with the address the link was made for, to accept."
      missingToken="This link has no transfer token. Copy the whole link and open it again."
      working="Making you the owner…"
      status={confirm.status}
      error={confirm.error}
    />
  );
}

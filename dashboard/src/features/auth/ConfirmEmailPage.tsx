import { useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';

import { LoadingState, errorMessage } from '../../components/ui/states';
import { useTokenAction } from '../../lib/useTokenAction';
import { AuthCard, FormAlert, textLinkClasses } from './AuthCard';
import { confirmEmailMutationOptions } from './queries';
import { useSignedIn } from './session';

export default function ConfirmEmailPage() {
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const confirm = useTokenAction({ action: 'confirm-email', params: ['token'], mutation: confirmEmailMutationOptions(queryClient) });

  const onward = signedIn ? (
    <Link to="/dashboard" className={textLinkClasses}>
      Go to your dashboard
    </Link>
  ) : (
    <Link to="/sign-in" className={textLinkClasses}>
      Sign in
    </Link>
  );

  return (
    <AuthCard title="Confirm your e-mail">
      {confirm.status === 'missing' ? (
        <FormAlert>This link has no confirmation token. Copy the whole link and open it again.</FormAlert>
      ) : confirm.data ? (
        <div role="status" className="space-y-3 text-sm">
          <p className="rounded-md border border-success-line bg-success-subtle px-3 py-2 text-success-fg">
            Thank you: <strong>{confirm.data.email}</strong> is confirmed.
          </p>
          {onward}
        </div>
      ) : confirm.status === 'error' ? (
        <div className="space-y-3 text-sm">
          <FormAlert>{errorMessage(confirm.error)}</FormAlert>
          {onward}
        </div>
      ) : (
        <LoadingState label="Confirming your address…" />
      )}
    </AuthCard>
  );
}

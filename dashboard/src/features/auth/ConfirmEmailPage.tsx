import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { Link, useSearchParams } from 'react-router';

import { LoadingState, errorMessage } from '../../components/ui/states';
import { AuthCard, FormAlert, textLinkClasses } from './AuthCard';
import { confirmEmailMutationOptions } from './queries';
import { useSignedIn } from './session';

export default function ConfirmEmailPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const queryClient = useQueryClient();
  const signedIn = useSignedIn();
  const confirm = useMutation(confirmEmailMutationOptions(queryClient));
  const started = useRef(false);

  useEffect(() => {
    if (!token || started.current) return;
    started.current = true;
    confirm.mutate(token);
  }, [token, confirm]);

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
      {!token ? (
        <FormAlert>This link has no confirmation token. Open the link from the e-mail again.</FormAlert>
      ) : confirm.isSuccess ? (
        <div role="status" className="space-y-3 text-sm">
          <p className="rounded-md border border-emerald-200 bg-emerald-50 px-3 py-2 text-emerald-900">
            Thank you: <strong>{confirm.data.email}</strong> is confirmed.
          </p>
          {onward}
        </div>
      ) : confirm.isError ? (
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

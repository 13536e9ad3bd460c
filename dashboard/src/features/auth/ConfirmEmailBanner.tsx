import { useMutation } from '@tanstack/react-query';

import type { User } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { toast } from '../../components/ui/toast-store';
import { resendConfirmationMutationOptions } from './queries';

/** Reminds a user whose address is not confirmed yet, with a way to get the link again. */
export function ConfirmEmailBanner({ user }: { user: User }) {
  const resend = useMutation(resendConfirmationMutationOptions());
  if (user.emailConfirmed) return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2 text-sm text-amber-900 sm:px-6">
      <p>
        Please confirm <strong>{user.email}</strong>: we sent you a link.
      </p>
      <Button
        variant="ghost"
        size="sm"
        className="text-amber-900 hover:bg-amber-100"
        busy={resend.isPending}
        busyLabel="Sending…"
        disabled={resend.isSuccess}
        onClick={() => resend.mutate(undefined, { onSuccess: () => toast.success('We sent a new confirmation link.'), onError: (e) => toast.error(e) })}
      >
        {resend.isSuccess ? 'Link sent' : 'Send the link again'}
      </Button>
    </div>
  );
}

import type { User } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { OutboxExplanation } from '../system/mail';
import { useResendConfirmation } from './useResendConfirmation';

/** Reminds a user whose address is not confirmed yet, says where the link went, and makes a new one. */
export function ConfirmEmailBanner({ user }: { user: User }) {
  const { mutation, words, resend } = useResendConfirmation();
  if (user.emailConfirmed) return null;
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-2 border-b border-warning-line bg-warning-subtle px-4 py-2 text-sm text-warning-fg sm:px-6">
      <p className="min-w-0 flex-1 basis-64">
        Please confirm <strong className="break-all">{user.email}</strong>
        {words.mode === 'smtp' ? (
          ': we sent you a link.'
        ) : words.mode === 'outbox' ? (
          <>
            . <OutboxExplanation />
          </>
        ) : (
          ' with the link made for you.'
        )}
      </p>
      <Button
        variant="ghost"
        size="sm"
        className="text-warning-fg hover:bg-warning-line"
        busy={mutation.isPending}
        busyLabel={words.resendBusy}
        disabled={mutation.isSuccess}
        onClick={resend}
      >
        {mutation.isSuccess ? words.resendDone : words.resendLabel}
      </Button>
    </div>
  );
}

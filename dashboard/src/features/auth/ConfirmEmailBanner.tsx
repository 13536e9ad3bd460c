import { X } from 'lucide-react';
import { useState } from 'react';

import type { User } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { useEmailConfirmationRequired } from '../system/mail';
import { useResendConfirmation } from './useResendConfirmation';

// When the banner shows (issue 21: it never went away, although a server without an e-mail
// relay requires no confirmation). Confirming must be both possible and needed: the server
// requires a confirmed address only when it delivers mail (emailConfirmationRequired), which is
// also when the link reaches the person's inbox. Without a relay the link is only in the server's
// log and nothing asks for it, so the banner never shows; the profile still says "Not
// confirmed" and can make a link. Dismissing it is remembered per user on this browser.

const DISMISSED = 'betty.confirmBanner.dismissed.';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

export function bannerDismissed(userId: string): boolean {
  return storage()?.getItem(DISMISSED + userId) === '1';
}

/** Reminds a user whose address is not confirmed, when the server needs it, and makes a new link. */
export function ConfirmEmailBanner({ user }: { user: User }) {
  const { mutation, words, resend } = useResendConfirmation();
  const required = useEmailConfirmationRequired();
  const [dismissed, setDismissed] = useState(() => bannerDismissed(user.id));
  if (user.emailConfirmed || required !== true || dismissed) return null;
  const dismiss = () => {
    storage()?.setItem(DISMISSED + user.id, '1');
    setDismissed(true);
  };
  return (
    <div role="status" className="flex flex-wrap items-center justify-between gap-2 border-b border-warning-line bg-warning-subtle px-4 py-2 text-sm text-warning-fg sm:px-6">
      <p className="min-w-0 flex-1 basis-64">
        Please confirm <strong className="break-all">{user.email}</strong>: we sent you a link. You will need it to sign in again.
      </p>
      <div className="flex items-center gap-1">
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
        <Button variant="ghost" size="sm" className="text-warning-fg hover:bg-warning-line" aria-label="Dismiss the reminder to confirm your e-mail" onClick={dismiss}>
          <X aria-hidden="true" />
        </Button>
      </div>
    </div>
  );
}

import { useMutation } from '@tanstack/react-query';

import { isApiError } from '../../api/mutator';
import { toast } from '../../components/ui/toast-store';
import { mailWords, useMailDelivery } from '../system/mail';
import { resendConfirmationMutationOptions } from './queries';

/** "Send the confirmation link again", worded for where this server's mail goes. */
export function useResendConfirmation() {
  const words = mailWords(useMailDelivery());
  const mutation = useMutation(resendConfirmationMutationOptions());
  function resend() {
    mutation.mutate(undefined, {
      onSuccess: () => toast.success(words.resent),
      onError: (error) => (isApiError(error) && error.status === 429 ? toast.warning(words.resendTooSoon) : toast.error(error)),
    });
  }
  return { mutation, words, resend };
}

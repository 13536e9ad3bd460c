import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/input';
import { errorMessage } from '../../components/ui/states';
import { emailError } from '../../lib/email';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { OutboxExplanation, useMailDelivery } from '../system/mail';
import { AuthCard, FormAlert, textLinkClasses } from './AuthCard';
import { requestPasswordResetMutationOptions } from './queries';

const SUBTITLES = {
  smtp: 'We will e-mail you a link to choose a new password.',
  outbox: "This server sends no e-mail: the link to choose a new password is written to the server's log.",
  unknown: 'Ask for a link to choose a new password.',
} as const;

export default function ForgotPasswordPage() {
  const delivery = useMailDelivery();
  const request = useMutation(requestPasswordResetMutationOptions());
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = emailError(email);
    setError(problem);
    if (problem) return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    request.mutate(email.trim());
  }

  let done;
  if (delivery === 'outbox') {
    done = (
      <>
        If an account uses this e-mail, a link to reset its password was created. <OutboxExplanation />
      </>
    );
  } else if (delivery === 'smtp') {
    done = request.data?.message || 'If an account uses this e-mail, we have sent it a link to reset the password.';
  } else {
    done = 'If an account uses this e-mail, a link to reset its password was created.';
  }

  return (
    <AuthCard
      title="Reset your password"
      subtitle={SUBTITLES[delivery ?? 'unknown']}
      footer={
        <Link to="/sign-in" className={textLinkClasses}>
          Back to sign in
        </Link>
      }
    >
      {request.isSuccess ? (
        <p role="status" className="rounded-md border border-success-line bg-success-subtle px-3 py-2 text-sm text-success-fg">
          {done}
        </p>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          {request.error && <FormAlert>{errorMessage(request.error)}</FormAlert>}
          <Field label="E-mail" error={error}>
            {(ids) => <Input {...ids} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
          </Field>
          <Button type="submit" busy={request.isPending} busyLabel={delivery === 'smtp' ? 'Sending…' : 'Creating the link…'} disabled={!email.trim()}>
            {delivery === 'smtp' ? 'Send reset link' : 'Create a reset link'}
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

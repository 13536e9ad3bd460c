import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/input';
import { errorMessage } from '../../components/ui/states';
import { AuthCard, FormAlert, textLinkClasses } from './AuthCard';
import { confirmPasswordResetMutationOptions } from './queries';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { passwordError, passwordHint } from '../../lib/password';
import { useUrlToken } from '../../lib/useTokenAction';

export default function ResetPasswordPage() {
  const token = useUrlToken(['token']);
  const reset = useMutation(confirmPasswordResetMutationOptions());
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string | undefined>();

  if (!token) {
    return (
      <AuthCard title="Reset your password">
        <FormAlert>This link has no reset token. Copy the whole link and open it again, or ask for a new one.</FormAlert>
        <Link to="/forgot-password" className={`mt-4 inline-block text-sm ${textLinkClasses}`}>
          Ask for a new link
        </Link>
      </AuthCard>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = passwordError(password) ?? (password !== repeat ? 'The two passwords are not the same.' : undefined);
    if (problem) {
      setError(problem);
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    }
    setError(undefined);
    reset.mutate({ token, password });
  }

  return (
    <AuthCard title="Choose a new password">
      {reset.isSuccess ? (
        <div role="status" className="space-y-3 text-sm">
          <p className="rounded-md border border-success-line bg-success-subtle px-3 py-2 text-success-fg">Your password is changed. Sign in with the new one.</p>
          <Link to="/sign-in" className={textLinkClasses}>
            Sign in
          </Link>
        </div>
      ) : (
        <form onSubmit={submit} className="space-y-4" noValidate>
          {reset.error && <FormAlert>{errorMessage(reset.error)}</FormAlert>}
          <Field label="New password" description={passwordHint(error)} error={error}>
            {(ids) => <Input {...ids} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} maxLength={128} />}
          </Field>
          <Field label="Repeat the new password">{(ids) => <Input {...ids} type="password" autoComplete="new-password" value={repeat} onChange={(e) => setRepeat(e.target.value)} maxLength={128} />}</Field>
          <Button type="submit" busy={reset.isPending} busyLabel="Saving…">
            Save new password
          </Button>
        </form>
      )}
    </AuthCard>
  );
}

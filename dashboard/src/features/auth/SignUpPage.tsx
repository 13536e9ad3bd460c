import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';

import { isApiError } from '../../api/mutator';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/input';
import { errorMessage } from '../../components/ui/states';
import { AuthCard, FormAlert, textLinkClasses } from './AuthCard';
import { signUpMutationOptions } from './queries';
import { safeNext, useSignedIn } from './session';
import { emailError } from '../../lib/email';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { passwordError, passwordHint } from '../../lib/password';
import { OutboxExplanation, useMailDelivery } from '../system/mail';

function validateSignUp(email: string, password: string): { email?: string; password?: string } {
  const errors: { email?: string; password?: string } = {};
  const badEmail = emailError(email);
  const badPassword = passwordError(password);
  if (badEmail) errors.email = badEmail;
  if (badPassword) errors.password = badPassword;
  return errors;
}

export default function SignUpPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const signedIn = useSignedIn();
  const signUp = useMutation(signUpMutationOptions(queryClient));
  const [name, setName] = useState('');
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const delivery = useMailDelivery();

  if (signedIn && !signUp.isSuccess) return <Navigate to={next} replace />;

  if (signUp.data?.emailConfirmationRequired) {
    return (
      <AuthCard
        title={delivery === 'outbox' ? 'Confirm your e-mail' : 'Check your e-mail'}
        subtitle={delivery === 'outbox' ? `Betty made a link to confirm ${signUp.data.user.email}.` : `We sent a confirmation link to ${signUp.data.user.email}.`}
      >
        {delivery === 'outbox' && (
          <p className="mb-3 text-sm text-fg-muted">
            <OutboxExplanation />
          </p>
        )}
        <p className="text-sm text-fg-muted">Open the link to confirm your address, then sign in.</p>
        <Link to={`/sign-in?email=${encodeURIComponent(signUp.data.user.email)}${params.get('next') ? `&next=${encodeURIComponent(next)}` : ''}`} className={`mt-4 inline-block text-sm ${textLinkClasses}`}>
          Go to sign in
        </Link>
      </AuthCard>
    );
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const found = validateSignUp(email, password);
    setErrors(found);
    if (found.email || found.password) return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    signUp.mutate(
      { email: email.trim(), password, ...(name.trim() ? { name: name.trim() } : {}) },
      {
        onSuccess: (result) => {
          if (result.session) void navigate(next, { replace: true });
        },
      },
    );
  }

  const error = signUp.error;
  const fieldError = (field: string) => (isApiError(error) ? error.fieldError(field) : undefined);

  return (
    <AuthCard
      title="Create your account"
      subtitle={params.get('next')?.startsWith('/invite') ? 'Create an account to accept your invitation.' : 'Start running AI voice agents for your team.'}
      footer={
        <>
          Already have an account?{' '}
          <Link to={params.get('next') ? `/sign-in?next=${encodeURIComponent(next)}` : '/sign-in'} className={textLinkClasses}>
            Sign in
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {error && !(isApiError(error) && error.errors.length > 0) && <FormAlert>{errorMessage(error)}</FormAlert>}
        <Field label="Your name" description="Optional; shown to your teammates." error={fieldError('name')}>
          {(ids) => <Input {...ids} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} />}
        </Field>
        <Field label="E-mail" error={errors.email ?? fieldError('email')}>
          {(ids) => <Input {...ids} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Password" description={passwordHint(errors.password ?? fieldError('password'))} error={errors.password ?? fieldError('password')}>
          {(ids) => <Input {...ids} type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} maxLength={128} />}
        </Field>
        <Button type="submit" busy={signUp.isPending} busyLabel="Creating your account…">
          Create account
        </Button>
      </form>
    </AuthCard>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';

import { isApiError } from '../../api/mutator';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/input';
import { errorMessage } from '../../components/ui/states';
import { emailError } from '../../lib/email';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { AuthCard, FormAlert, textLinkClasses } from './AuthCard';
import { signInMutationOptions } from './queries';
import { safeNext, useSignedIn } from './session';

export default function SignInPage() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const next = safeNext(params.get('next'));
  const signedIn = useSignedIn();
  const signIn = useMutation(signInMutationOptions(queryClient));
  const [email, setEmail] = useState(params.get('email') ?? '');
  const [password, setPassword] = useState('');
  const [badEmail, setBadEmail] = useState<string | undefined>();

  if (signedIn && !signIn.isSuccess) return <Navigate to={next} replace />;

  function submit(event: FormEvent) {
    event.preventDefault();
    const problem = emailError(email);
    setBadEmail(problem);
    if (problem) return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    signIn.mutate({ email: email.trim(), password }, { onSuccess: () => void navigate(next, { replace: true }) });
  }

  const withNext = (path: string) => (params.get('next') ? `${path}?next=${encodeURIComponent(next)}` : path);
  const error = signIn.error;

  return (
    <AuthCard
      title="Sign in"
      subtitle={params.get('next')?.startsWith('/invite') ? 'Sign in to accept your invitation.' : 'Welcome back to Betty.'}
      footer={
        <>
          New to Betty?{' '}
          <Link to={withNext('/sign-up')} className={textLinkClasses}>
            Create an account
          </Link>
        </>
      }
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {error && <FormAlert>{errorMessage(error)}</FormAlert>}
        <Field label="E-mail" error={badEmail ?? (isApiError(error) ? error.fieldError('email') : undefined)}>
          {(ids) => <Input {...ids} type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field label="Password">
          {(ids) => <Input {...ids} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />}
        </Field>
        <div className="flex items-center justify-between gap-3">
          <Button type="submit" busy={signIn.isPending} busyLabel="Signing in…" disabled={!email || !password}>
            Sign in
          </Button>
          <Link to="/forgot-password" className={`text-sm ${textLinkClasses}`}>
            Forgot password?
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}

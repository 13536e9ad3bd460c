import { useMutation, useQueryClient } from '@tanstack/react-query';
import { LogOut } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { isApiError } from '../../api/mutator';
import type { User } from '../../api/gen/model';
import { PageHeader } from '../../components/ui/page-header';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/input';
import { toast } from '../../components/ui/toast-store';
import { signOut, updateProfileMutationOptions } from '../auth/queries';
import { useResendConfirmation } from '../auth/useResendConfirmation';
import { OutboxExplanation } from '../system/mail';
import { useTeamContext } from '../team/TeamContext';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';

export default function ProfilePage() {
  const { user } = useTeamContext();
  const queryClient = useQueryClient();
  return (
    <div className="mx-auto max-w-2xl space-y-6">
      <PageHeader title="Profile" description="How you appear to your teammates." actions={
          <Button variant="secondary" onClick={() => void signOut(queryClient)}>
            <LogOut aria-hidden="true" />
            Sign out
          </Button>
        } />
      <AccountSection user={user} />
      <ProfileForm key={user.updatedAt} user={user} />
    </div>
  );
}

function AccountSection({ user }: { user: User }) {
  const { mutation, words, resend } = useResendConfirmation();
  return (
    <section aria-labelledby="account-heading" className="rounded-xl border border-line bg-surface p-5 text-sm">
      <h2 id="account-heading" className="font-semibold text-fg">
        Account
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-2">
        <span className="text-fg-muted">E-mail:</span>
        <span className="font-medium text-fg">{user.email}</span>
        {user.emailConfirmed ? <Badge tone="success">Confirmed</Badge> : <Badge tone="warning">Not confirmed</Badge>}
        {user.isSiteAdmin && <Badge tone="info">Site admin</Badge>}
      </div>
      {!user.emailConfirmed && (
        <>
          {words.mode === 'outbox' && (
            <p className="mt-3 text-fg-muted">
              <OutboxExplanation />
            </p>
          )}
          <Button variant="secondary" size="sm" className="mt-3" busy={mutation.isPending} busyLabel={words.resendBusy} onClick={resend}>
            {words.resendLabel}
          </Button>
        </>
      )}
    </section>
  );
}

function ProfileForm({ user }: { user: User }) {
  const queryClient = useQueryClient();
  const update = useMutation(updateProfileMutationOptions(queryClient));
  const [values, setValues] = useState({
    name: user.profile.name ?? '',
    jobTitle: user.profile.jobTitle ?? '',
    phoneNumber: user.profile.phoneNumber ?? '',
    timezone: user.profile.timezone ?? '',
  });
  const [phoneError, setPhoneError] = useState<string | undefined>();
  const serverError = isApiError(update.error) ? update.error : undefined;
  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));

  function submit(event: FormEvent) {
    event.preventDefault();
    const phone = values.phoneNumber.replace(/[\s()-]/g, '');
    if (phone && !/^\+[1-9][0-9]{6,14}$/.test(phone)) {
      setPhoneError('Use the international form, for example +14155550123.');
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    }
    setPhoneError(undefined);
    update.mutate(
      { name: values.name.trim(), jobTitle: values.jobTitle.trim(), phoneNumber: phone, timezone: values.timezone.trim() },
      { onSuccess: () => toast.success('Profile saved.'), onError: (e) => !(isApiError(e) && e.errors.length) && toast.error(e) },
    );
  }

  return (
    <section aria-labelledby="profile-heading" className="rounded-xl border border-line bg-surface p-5">
      <h2 id="profile-heading" className="mb-4 font-semibold text-fg">
        Details
      </h2>
      <form onSubmit={submit} className="grid gap-4 sm:grid-cols-2" noValidate>
        <Field label="Name" error={serverError?.fieldError('props.name') ?? serverError?.fieldError('name')}>
          {(ids) => <Input {...ids} value={values.name} onChange={set('name')} autoComplete="name" maxLength={100} />}
        </Field>
        <Field label="Job title" error={serverError?.fieldError('props.jobTitle') ?? serverError?.fieldError('jobTitle')}>
          {(ids) => <Input {...ids} value={values.jobTitle} onChange={set('jobTitle')} autoComplete="organization-title" maxLength={100} />}
        </Field>
        <Field label="Phone number" description="Pre-fills your test calls." error={phoneError ?? serverError?.fieldError('props.phoneNumber') ?? serverError?.fieldError('phoneNumber')}>
          {(ids) => <Input {...ids} type="tel" value={values.phoneNumber} onChange={set('phoneNumber')} autoComplete="tel" placeholder="+14155550123" />}
        </Field>
        <Field label="Time zone" description="Empty uses your browser's." error={serverError?.fieldError('props.timezone') ?? serverError?.fieldError('timezone')}>
          {(ids) => <Input {...ids} value={values.timezone} onChange={set('timezone')} placeholder={Intl.DateTimeFormat().resolvedOptions().timeZone} maxLength={64} />}
        </Field>
        <div className="sm:col-span-2">
          <Button type="submit" busy={update.isPending} busyLabel="Saving…">
            Save profile
          </Button>
        </div>
      </form>
    </section>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router';

import { isApiError } from '../../api/mutator';
import type { Organization } from '../../api/gen/model';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Badge, StatusBadge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field, Input, Textarea } from '../../components/ui/input';
import { toast } from '../../components/ui/toast-store';
import { LEVEL_NAMES } from '../../lib/plans';
import { can } from '../../lib/roles';
import { deleteTeamMutationOptions, requestVerificationMutationOptions, updateTeamMutationOptions } from './queries';
import { useCurrentTeam } from './TeamContext';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';

export default function TeamSettingsPage() {
  const team = useCurrentTeam();
  return (
    <div className="mx-auto max-w-3xl space-y-6">
      <PageHeader title="Team settings" description={`How ${team.name} appears, its verification and, for the owner, deleting it.`} />
      {/* Keyed by team so switching teams resets the form to the new team's values. */}
      <PropertiesSection key={team.id} team={team} />
      <VerificationSection team={team} />
      <PublicKeySection team={team} />
      <DangerSection team={team} />
    </div>
  );
}

function Section({ title, children, id }: { title: string; id: string; children: React.ReactNode }) {
  return (
    <section aria-labelledby={id} className="rounded-xl border border-line bg-surface p-5">
      <h2 id={id} className="mb-4 font-semibold text-fg">
        {title}
      </h2>
      {children}
    </section>
  );
}

function PropertiesSection({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const update = useMutation(updateTeamMutationOptions(queryClient));
  const permission = can(team.myRole, 'editTeam');
  const [values, setValues] = useState({
    name: team.name,
    companyName: team.companyName ?? '',
    industry: team.industry ?? '',
    purpose: team.purpose ?? '',
  });
  const [nameError, setNameError] = useState<string | undefined>();
  const serverError = isApiError(update.error) ? update.error : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (!values.name.trim()) {
      setNameError('The team needs a name.');
      return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    }
    setNameError(undefined);
    update.mutate(
      { id: team.id, name: values.name.trim(), companyName: values.companyName.trim(), industry: values.industry.trim(), purpose: values.purpose.trim() },
      { onSuccess: () => toast.success('Team settings saved.'), onError: (error) => toast.error(error) },
    );
  }

  const set = (key: keyof typeof values) => (e: { target: { value: string } }) => setValues((v) => ({ ...v, [key]: e.target.value }));
  const disabled = !permission.allowed;

  return (
    <Section title="Properties" id="properties-heading">
      {disabled && <div className="mb-4"><RoleNotice>{permission.reason}</RoleNotice></div>}
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Team name" error={nameError ?? serverError?.fieldError('name')}>
            {(ids) => <Input {...ids} value={values.name} onChange={set('name')} disabled={disabled} maxLength={100} />}
          </Field>
          <Field label="Company name" error={serverError?.fieldError('companyName')}>
            {(ids) => <Input {...ids} value={values.companyName} onChange={set('companyName')} disabled={disabled} maxLength={200} />}
          </Field>
          <Field label="Industry" error={serverError?.fieldError('industry')}>
            {(ids) => <Input {...ids} value={values.industry} onChange={set('industry')} disabled={disabled} maxLength={100} />}
          </Field>
        </div>
        <Field label="What your agents do" error={serverError?.fieldError('purpose')}>
          {(ids) => <Textarea {...ids} value={values.purpose} onChange={set('purpose')} disabled={disabled} maxLength={500} />}
        </Field>
        {!disabled && (
          <Button type="submit" busy={update.isPending} busyLabel="Saving…">
            Save changes
          </Button>
        )}
      </form>
    </Section>
  );
}

function VerificationSection({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const request = useMutation(requestVerificationMutationOptions(queryClient));
  const permission = can(team.myRole, 'requestVerification');
  const next = team.verificationLevel === 'none' ? 'L1' : team.verificationLevel === 'l1' ? 'L2' : null;
  return (
    <Section title="Verification" id="verification-heading">
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span className="text-fg-muted">Current level:</span>
        <Badge tone={team.verificationLevel === 'none' ? 'neutral' : 'success'}>{LEVEL_NAMES[team.verificationLevel]}</Badge>
        {request.data && <StatusBadge status={request.data.status} />}
      </div>
      <p className="mt-3 text-sm text-fg-muted">Verification lets carriers trust your calls and unlocks more numbers and countries.</p>
      <div className="mt-4">
        {next === null ? (
          <p className="text-sm text-fg-muted">The team has the highest level.</p>
        ) : permission.allowed ? (
          <Button
            variant="secondary"
            busy={request.isPending}
            busyLabel="Requesting…"
            disabled={request.isSuccess}
            onClick={() =>
              request.mutate(team.id, {
                onSuccess: () => toast.success(`We received your request for ${next} verification.`),
                onError: (error) => toast.error(error),
              })
            }
          >
            {request.isSuccess ? 'Verification requested' : `Request ${next} verification`}
          </Button>
        ) : (
          <RoleNotice>{permission.reason}</RoleNotice>
        )}
      </div>
    </Section>
  );
}

function PublicKeySection({ team }: { team: Organization }) {
  return (
    <Section title="Publishable key" id="public-key-heading">
      <p className="text-sm text-fg-muted">Identifies the team on public surfaces such as the storefront widget. It is not a secret and grants no access.</p>
      <code className="mt-3 block overflow-x-auto rounded-md bg-muted px-3 py-2 font-mono text-sm text-fg">{team.publicApiKey}</code>
    </Section>
  );
}

function DangerSection({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const remove = useMutation(deleteTeamMutationOptions(queryClient));
  const permission = can(team.myRole, 'deleteTeam');
  const [open, setOpen] = useState(false);
  return (
    <Section title="Delete team" id="danger-heading">
      <p className="text-sm text-fg-muted">Deleting the team removes its agents, campaigns, numbers, calls and members for good.</p>
      <div className="mt-4">
        {permission.allowed ? (
          <Button variant="danger" onClick={() => setOpen(true)}>
            <Trash2 aria-hidden="true" />
            Delete team
          </Button>
        ) : (
          <RoleNotice>{permission.reason}</RoleNotice>
        )}
      </div>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={`Delete ${team.name}?`}
        description="This cannot be undone. Every member loses access at once."
        confirmLabel="Delete team"
        typeToConfirm={team.name}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(team.id, {
            onSuccess: () => {
              setOpen(false);
              toast.success(`${team.name} was deleted.`);
              void navigate('/dashboard', { replace: true });
            },
            onError: (error) => toast.error(error),
          })
        }
      />
    </Section>
  );
}

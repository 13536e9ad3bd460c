import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';

import { isApiError } from '../../api/mutator';
import type { Organization } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Field, Input, Textarea } from '../../components/ui/input';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast-store';
import { createTeamMutationOptions } from './queries';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';

const PLATFORMS = [
  { value: 'web', label: 'Website' },
  { value: 'shopify', label: 'Shopify' },
  { value: 'hubspot', label: 'HubSpot' },
  { value: 'other', label: 'Something else' },
] as const;

export function CreateTeamForm({ onCreated, submitLabel = 'Create team' }: { onCreated: (team: Organization) => void; submitLabel?: string }) {
  const queryClient = useQueryClient();
  const create = useMutation(createTeamMutationOptions(queryClient));
  const [name, setName] = useState('');
  const [companyName, setCompanyName] = useState('');
  const [industry, setIndustry] = useState('');
  const [purpose, setPurpose] = useState('');
  const [platformKey, setPlatformKey] = useState<string | undefined>(undefined);
  const [nameError, setNameError] = useState<string | undefined>();

  const serverError = isApiError(create.error) ? create.error : undefined;

  function submit(event: FormEvent) {
    event.preventDefault();
    if (name.trim() === '') {
      setNameError('Give the team a name.');
      focusFirstInvalid(event.currentTarget as HTMLFormElement);
      return;
    }
    setNameError(undefined);
    create.mutate(
      {
        name: name.trim(),
        ...(companyName.trim() ? { companyName: companyName.trim() } : {}),
        ...(industry.trim() ? { industry: industry.trim() } : {}),
        ...(purpose.trim() ? { purpose: purpose.trim() } : {}),
        ...(platformKey ? { platformKey } : {}),
      },
      {
        onSuccess: (team) => {
          toast.success(`Team "${team.name}" is ready.`);
          onCreated(team);
        },
        onError: (error) => toast.error(error),
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Team name" error={nameError ?? serverError?.fieldError('name')}>
        {(ids) => <Input {...ids} value={name} onChange={(e) => setName(e.target.value)} maxLength={100} required autoComplete="organization" />}
      </Field>
      <Field label="Company name" description="Optional: the legal or trading name." error={serverError?.fieldError('companyName')}>
        {(ids) => <Input {...ids} value={companyName} onChange={(e) => setCompanyName(e.target.value)} maxLength={200} />}
      </Field>
      <Field label="Industry" description="Optional, for example Retail or Healthcare." error={serverError?.fieldError('industry')}>
        {(ids) => <Input {...ids} value={industry} onChange={(e) => setIndustry(e.target.value)} maxLength={100} />}
      </Field>
      <Field label="What will your agents do?" description="Optional, for example answer support calls or book appointments." error={serverError?.fieldError('purpose')}>
        {(ids) => <Textarea {...ids} value={purpose} onChange={(e) => setPurpose(e.target.value)} maxLength={500} />}
      </Field>
      <Field label="Where does your business run?" description="Optional; it picks the integration hints we show.">
        {(ids) => <Select {...ids} value={platformKey} onValueChange={setPlatformKey} options={PLATFORMS} placeholder="Choose a platform" />}
      </Field>
      <Button type="submit" busy={create.isPending} busyLabel="Creating…">
        {submitLabel}
      </Button>
    </form>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import type { Campaign, CampaignVoicemailAction, Organization } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { Checkbox } from '../../components/ui/checkbox';
import { Field, Input, Textarea } from '../../components/ui/input';
import { RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { toast } from '../../components/ui/toast-store';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { can } from '../../lib/roles';
import { teamPath } from '../team/TeamContext';
import { NUMBER_TYPES, WEEKDAYS } from './labels';
import { updateCampaignMutationOptions } from './queries';
import { formFromSettings, settingsFromForm, timeZones, validateSettings, type SettingsErrors, type SettingsForm } from './settings';

const VOICEMAIL: { value: CampaignVoicemailAction; label: string }[] = [
  { value: 'hang-up', label: 'Hang up (the contact may be retried)' },
  { value: 'leave-message', label: 'Leave a message (no retry)' },
];

export function CampaignSettingsTab({ team, campaign }: { team: Organization; campaign: Campaign }) {
  const queryClient = useQueryClient();
  const update = useMutation(updateCampaignMutationOptions(queryClient));
  const [form, setForm] = useState<SettingsForm>(() => formFromSettings(campaign.settings));
  const [errors, setErrors] = useState<SettingsErrors>({});
  const zonesId = useId();
  const daysId = useId();
  const edit = can(team.myRole, 'editCalling');
  const server = isApiError(update.error) ? update.error : undefined;
  const serverField = (name: string) => server?.fieldError(`body.settings.${name}`);
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => setForm((f) => ({ ...f, [key]: value }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = validateSettings(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(event.currentTarget);
    update.mutate(
      { id: campaign.id, body: { settings: settingsFromForm(form) } },
      {
        onSuccess: () => toast.success('The settings were saved.'),
        onError: (error) => {
          if (!(isApiError(error) && error.errors.length > 0)) toast.error(error);
        },
      },
    );
  }

  const outbound = campaign.type === 'outbound';
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      {!edit.allowed && <RoleNotice>{edit.reason}</RoleNotice>}
      <fieldset disabled={!edit.allowed} className="space-y-5">
        <Card>
          <CardHeader title="Calling window" description={outbound ? 'Calls start only inside these hours; a contact due outside them waits for the next allowed day.' : 'Used by outbound campaigns; this campaign answers calls at any hour.'} />
          <CardBody className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-3">
              <Field label="From" error={errors.start ?? serverField('callWindow.start')}>
                {(ids) => <Input {...ids} type="time" value={form.start} onChange={(e) => set('start', e.target.value)} />}
              </Field>
              <Field label="Until" error={errors.end ?? serverField('callWindow.end')}>
                {(ids) => <Input {...ids} type="time" value={form.end} onChange={(e) => set('end', e.target.value)} />}
              </Field>
              <Field label="Time zone" description="The window is read in each contact’s zone, from their number; this one is for numbers that tell none." error={errors.timezone ?? serverField('timezone')}>
                {(ids) => (
                  <>
                    <Input {...ids} list={zonesId} value={form.timezone} onChange={(e) => set('timezone', e.target.value)} autoComplete="off" spellCheck={false} />
                    <datalist id={zonesId}>
                      {timeZones().map((z) => (
                        <option key={z} value={z} />
                      ))}
                    </datalist>
                  </>
                )}
              </Field>
            </div>
            <fieldset aria-describedby={errors.days ? `${daysId}-error` : undefined}>
              <legend className="mb-2 text-sm font-medium text-fg">Days</legend>
              <div className="flex flex-wrap gap-x-4 gap-y-2">
                {WEEKDAYS.map((d) => (
                  <Checkbox key={d.value} label={d.short} checked={form.days.includes(d.value)} onCheckedChange={(on) => set('days', on ? [...form.days, d.value] : form.days.filter((x) => x !== d.value))} />
                ))}
              </div>
              {errors.days && (
                <p id={`${daysId}-error`} className="mt-1.5 text-xs font-medium text-danger-fg">
                  {errors.days}
                </p>
              )}
            </fieldset>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Attempts and pace" />
          <CardBody className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field label="Retries per contact" description="Extra attempts after no answer, busy, failure or voicemail; 0 calls once." error={errors.retryAttempts ?? serverField('retryAttempts')}>
              {(ids) => <Input {...ids} type="number" inputMode="numeric" min={0} max={5} value={form.retryAttempts} onChange={(e) => set('retryAttempts', e.target.value)} />}
            </Field>
            <Field label="Minutes between attempts" description="From 5 to 1440, still inside the window." error={errors.retryDelayMinutes ?? serverField('retryDelayMinutes')}>
              {(ids) => <Input {...ids} type="number" inputMode="numeric" min={5} max={1440} value={form.retryDelayMinutes} onChange={(e) => set('retryDelayMinutes', e.target.value)} />}
            </Field>
            <Field label="Calls at the same time" description="1 to 50; inbound calls over it hear a busy tone." error={errors.maxConcurrentCalls ?? serverField('maxConcurrentCalls')}>
              {(ids) => <Input {...ids} type="number" inputMode="numeric" min={1} max={50} value={form.maxConcurrentCalls} onChange={(e) => set('maxConcurrentCalls', e.target.value)} />}
            </Field>
            <Field label="Longest call (minutes)" description="1 to 240; Betty hangs up a call that reaches it." error={errors.maxCallDurationMinutes ?? serverField('maxCallDurationMinutes')}>
              {(ids) => <Input {...ids} type="number" inputMode="numeric" min={1} max={240} value={form.maxCallDurationMinutes} onChange={(e) => set('maxCallDurationMinutes', e.target.value)} />}
            </Field>
          </CardBody>
        </Card>

        <Card>
          <CardHeader
            title="Numbers called"
            description="Landline and mobile numbers are always called. Tick a kind to also call numbers of it that your team uploads or types (CSV files, test runs); numbers from the storefront, Zapier or HubSpot are called only when they are landlines or mobiles."
          />
          <CardBody className="space-y-3">
            {serverField('allowedNumberTypes') && <p className="text-xs font-medium text-danger-fg">{serverField('allowedNumberTypes')}</p>}
            <div className="grid gap-3 sm:grid-cols-2">
              {NUMBER_TYPES.map((t) => (
                <Checkbox
                  key={t.value}
                  label={t.label}
                  description={t.description}
                  checked={form.allowedNumberTypes.includes(t.value)}
                  onCheckedChange={(on) => set('allowedNumberTypes', on ? [...form.allowedNumberTypes, t.value] : form.allowedNumberTypes.filter((x) => x !== t.value))}
                />
              ))}
            </div>
          </CardBody>
        </Card>

        <Card>
          <CardHeader title="Voicemail, recording and caller ID" />
          <CardBody className="space-y-4">
            <Field label="On voicemail" error={serverField('voicemailAction')}>
              {(ids) => <Select {...ids} value={form.voicemailAction} onValueChange={(v) => set('voicemailAction', v)} options={VOICEMAIL} />}
            </Field>
            {form.voicemailAction === 'leave-message' && (
              <Field label="Voicemail message" description="May use placeholders such as {{firstName}} from the contact row." error={errors.voicemailMessage ?? serverField('voicemailMessage')}>
                {(ids) => <Textarea {...ids} value={form.voicemailMessage} maxLength={1000} onChange={(e) => set('voicemailMessage', e.target.value)} />}
              </Field>
            )}
            <Checkbox label="Record calls" description="Recordings appear with the call logs." checked={form.recordCalls} onCheckedChange={(v) => set('recordCalls', v)} />
            <div className="text-sm">
              <p className="font-medium text-fg">Caller ID</p>
              <p className="mt-1 text-fg-muted">
                {campaign.phoneNumber ? (
                  <>
                    {outbound ? 'Calls show ' : 'The campaign answers calls to '}
                    <span className="font-mono text-fg">{campaign.phoneNumber}</span>.{' '}
                  </>
                ) : (
                  'No number yet; the campaign needs one before it can be active. '
                )}
                <Link className="text-accent-fg underline underline-offset-2" to={teamPath(`/dashboard/campaigns/${campaign.id}/phone-numbers`, team.id)}>
                  Change it under Phone Numbers
                </Link>
              </p>
            </div>
          </CardBody>
        </Card>
      </fieldset>
      {edit.allowed && (
        <div className="flex justify-end">
          <Button type="submit" busy={update.isPending} busyLabel="Saving…">
            Save settings
          </Button>
        </div>
      )}
    </form>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ExternalLink, FlaskConical, PhoneCall } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import { isApiError } from '../../api/mutator';
import { getListJobStatusesQueryKey, listJobStatuses } from '../../api/gen/jobs/jobs';
import type { CallLog, Job, Organization, Workflow } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Field, Input, Textarea } from '../../components/ui/input';
import { SkeletonText } from '../../components/ui/skeleton';
import { errorMessage } from '../../components/ui/states';
import { subscribeEvents } from '../../lib/events';
import { callLogQueryOptions, callLogsQueryOptions, LIVE_TRANSCRIPT_MS, transcriptQueryOptions } from '../calls/queries';
import { callStatus, formatDuration } from '../calls/format';
import { TranscriptView } from '../calls/TranscriptView';
import { teamPath, useTeamContext } from '../team/TeamContext';
import { jobStatus } from './progress';
import { testRunMutationOptions } from './queries';
import { findTestCall, validateTestRun, type TestRunForm, type TestRunErrors } from './testRun';

/** While the test call is looked for or in progress, what is read again and how often. */
const WATCH_MS = 2_000;

/** Asks whom to call and whom the agent should take them for, starts the test, then shows the call as it happens. */
export function TestRunDialog({ open, onOpenChange, team, workflow }: { open: boolean; onOpenChange: (open: boolean) => void; team: Organization; workflow: Workflow }) {
  const { user } = useTeamContext();
  const queryClient = useQueryClient();
  const start = useMutation(testRunMutationOptions(queryClient));
  const [form, setForm] = useState<TestRunForm>({ destinationPhoneNumber: user.profile?.phoneNumber ?? '', customerDescription: '', nameOrEmail: user.profile?.name ?? '' });
  const [errors, setErrors] = useState<TestRunErrors>({});
  const [job, setJob] = useState<Job | null>(null);

  const close = (next: boolean) => {
    if (!next) {
      setJob(null);
      start.reset();
    }
    onOpenChange(next);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateTestRun(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    start.mutate(
      {
        workflowId: workflow.id,
        organizationId: team.id,
        destinationPhoneNumber: form.destinationPhoneNumber.trim(),
        customerDescription: form.customerDescription.trim(),
        nameOrEmail: form.nameOrEmail.trim(),
        isTestWorkflow: true,
        triggeredBy: user.email,
      },
      { onSuccess: setJob },
    );
  };

  const fieldError = (name: keyof TestRunForm) => errors[name] ?? (isApiError(start.error) ? start.error.fieldError(`body.${name}`) : undefined);

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent
        title={job ? `Testing ${workflow.name}` : `Test ${workflow.name}`}
        description={job ? 'The agent calls the number now. What is said appears here as it is said.' : 'The agent calls one number — usually your own phone — and follows this workflow as if you were a contact. Nothing is written to your CRM.'}
        className="max-w-2xl"
      >
        {job ? (
          <TestCallWatch team={team} workflow={workflow} job={job} destination={form.destinationPhoneNumber.trim()} customerName={form.nameOrEmail.trim()} onClose={() => close(false)} />
        ) : (
          <form noValidate onSubmit={submit} className="space-y-4">
            <Field label="Number to call" description="In international format, like +14155550123." error={fieldError('destinationPhoneNumber')}>
              {(ids) => <Input {...ids} type="tel" autoComplete="tel" value={form.destinationPhoneNumber} onChange={(e) => setForm({ ...form, destinationPhoneNumber: e.target.value })} />}
            </Field>
            <Field label="Name or e-mail" description="What the agent calls the person answering ({{firstName}} / {{email}} in the flow)." error={fieldError('nameOrEmail')}>
              {(ids) => <Input {...ids} value={form.nameOrEmail} onChange={(e) => setForm({ ...form, nameOrEmail: e.target.value })} />}
            </Field>
            <Field label="Persona" description="Who the agent should take the person answering for: situation, history, mood." error={fieldError('customerDescription')}>
              {(ids) => <Textarea {...ids} rows={3} value={form.customerDescription} placeholder="A returning customer whose order arrived damaged." onChange={(e) => setForm({ ...form, customerDescription: e.target.value })} />}
            </Field>
            <GenericSteps workflow={workflow} />
            {start.isError && (
              <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
                {errorMessage(start.error)}
              </p>
            )}
            <DialogFooter>
              <Button variant="secondary" onClick={() => close(false)}>
                Cancel
              </Button>
              <Button type="submit" busy={start.isPending} busyLabel="Calling…">
                <PhoneCall aria-hidden="true" />
                Call now
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}

/**
 * The steps that will sound generic (the server's `warnings`: no spoken line while no language
 * model is configured), named by their titles, so a test call's neutral lines are no surprise.
 */
function GenericSteps({ workflow }: { workflow: Workflow }) {
  const warnings = workflow.warnings ?? [];
  if (warnings.length === 0) return null;
  const titles = warnings.map((w) => {
    const id = /^nodes\[(.+)\]/.exec(w.field)?.[1];
    const node = workflow.nodes?.find((n) => n.id === id);
    const label = typeof node?.data.nodeLabel === 'string' ? node.data.nodeLabel.trim() : '';
    if (label) return label;
    // Untitled: its kind, as the canvas names it ("end-call" → "End Call").
    return node ? node.type.replace(/(^|-)(\w)/g, (_, sep: string, c: string) => (sep ? ' ' : '') + c.toUpperCase()) : w.field;
  });
  return (
    <div role="note" className="rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
      <p>
        {warnings.length === 1 ? 'One step has' : `${warnings.length} steps have`} no spoken line. Without a language model, the agent says a neutral line built from the step’s title instead:
      </p>
      <ul className="mt-1 list-disc pl-5">
        {titles.map((t, i) => (
          <li key={warnings[i]!.field}>{t}</li>
        ))}
      </ul>
    </div>
  );
}

/** The test job and its call: found from the event stream or the newest call logs, then its transcript live. */
function TestCallWatch({ team, workflow, job, destination, customerName, onClose }: { team: Organization; workflow: Workflow; job: Job; destination: string; customerName: string; onClose: () => void }) {
  const [callId, setCallId] = useState<string | null>(null);
  const criteria = { workflowId: workflow.id, to: destination, since: job.createdAt };

  // The stream names the call as soon as it starts.
  useEffect(
    () =>
      subscribeEvents((event) => {
        if (event.event !== 'call.updated' || callId) return;
        try {
          const call = JSON.parse(event.data) as CallLog;
          if (findTestCall([call], criteria)) setCallId(call.id);
        } catch {
          // not a call
        }
      }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [callId, workflow.id, destination, job.createdAt],
  );

  const jobParams = { ids: [job.id] };
  const status = useQuery({
    queryKey: getListJobStatusesQueryKey(jobParams),
    queryFn: async ({ signal }) => (await listJobStatuses(jobParams, { signal })).data[0] ?? job,
    refetchInterval: (q) => (q.state.data?.status === 'in-progress' || !q.state.data ? WATCH_MS : false),
  });
  const latest = status.data ?? job;
  // Without the stream: the newest calls, until the test call is among them.
  const calls = useQuery({ ...callLogsQueryOptions(team.id, 1), refetchInterval: callId ? false : WATCH_MS, enabled: !callId });
  useEffect(() => {
    const found = calls.data ? findTestCall(calls.data.data, criteria) : null;
    if (found && !callId) setCallId(found.id);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [calls.data, callId]);

  const call = useQuery({
    ...callLogQueryOptions(team.id, callId ?? ''),
    enabled: !!callId,
    refetchInterval: (q) => (q.state.data && q.state.data.endTime !== null ? false : WATCH_MS),
  });
  const live = !!call.data && call.data.endTime === null;
  const transcript = useQuery({
    ...transcriptQueryOptions(team.id, call.data?.callControlId ?? ''),
    enabled: !!call.data?.callControlId,
    refetchInterval: live ? LIVE_TRANSCRIPT_MS : false,
  });
  // One last read once the call ended, so the final turns (and the job's end) are there.
  useEffect(() => {
    if (call.data?.endTime) {
      void transcript.refetch();
      void status.refetch();
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [call.data?.endTime]);

  const js = jobStatus(latest);
  const cs = call.data ? callStatus(call.data.status) : null;
  return (
    <div className="space-y-4" data-testid="test-run">
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <FlaskConical aria-hidden="true" className="size-4 text-fg-subtle" />
        <span className="text-fg-muted">
          {call.data?.endTime ? 'Called' : 'Calling'} {destination}
        </span>
        <span className="inline-flex items-center gap-1 text-xs text-fg-muted">
          Test
          <Badge tone={js.tone}>{js.label}</Badge>
        </span>
        {cs && (
          <span className="inline-flex items-center gap-1 text-xs text-fg-muted">
            Call
            <Badge tone={cs.tone}>
              <span data-testid="test-call-status">{cs.label}</span>
            </Badge>
          </span>
        )}
        {call.data && call.data.durationSeconds > 0 && <span className="text-fg-muted tabular-nums">{formatDuration(call.data.durationSeconds)}</span>}
      </div>
      {latest.error && (
        <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
          {latest.error}
        </p>
      )}
      <div className="max-h-[50vh] min-h-32 overflow-y-auto rounded-lg border border-line p-3">
        {!callId ? (
          latest.status === 'in-progress' ? (
            <SkeletonText label="Placing the call…" lines={2} />
          ) : (
            <p className="text-sm text-fg-muted">No call was placed{latest.error ? '' : ' for this test'}.</p>
          )
        ) : transcript.isPending && !transcript.data ? (
          <SkeletonText label="Waiting for the first words…" lines={2} />
        ) : transcript.isError ? (
          <p className="text-sm text-danger-fg">{errorMessage(transcript.error)}</p>
        ) : !transcript.data || transcript.data.entries.length === 0 ? (
          <p className="text-sm text-fg-muted" role="status">
            {live ? 'Ringing… the transcript starts when the call is answered.' : 'Nothing was said on this call.'}
          </p>
        ) : (
          <TranscriptView entries={transcript.data.entries} customerName={customerName || 'Customer'} live={live} />
        )}
      </div>
      <DialogFooter>
        {callId && (
          <Link className="inline-flex items-center justify-center gap-1.5 rounded-md px-3.5 py-2 text-sm font-semibold text-accent-fg hover:bg-muted" to={teamPath(`/dashboard/calls?callLogId=${encodeURIComponent(callId)}`, team.id)}>
            <ExternalLink aria-hidden="true" className="size-4" />
            Open in call logs
          </Link>
        )}
        <Button variant="secondary" onClick={onClose}>
          Close
        </Button>
      </DialogFooter>
    </div>
  );
}

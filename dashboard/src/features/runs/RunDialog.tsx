import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarClock, Clock, Coins, Gauge, PhoneOff, RotateCw, Users } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { getGetWorkflowCsvQueryKey, getWorkflowCsv } from '../../api/gen/workflows/workflows';
import type { Job, Organization, Workflow } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { Dialog, DialogContent, DialogFooter } from '../../components/ui/dialog';
import { Skeleton } from '../../components/ui/skeleton';
import { errorMessage } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { can } from '../../lib/roles';
import { creditsQueryOptions } from '../billing/queries';
import { campaignQueryOptions } from '../campaigns/queries';
import { teamPath } from '../team/TeamContext';
import { contactsNode, countContacts, DEFAULT_RUN_SETTINGS, formatCount, formatRetries, formatWindow } from './plan';
import { runMutationOptions, runPreviewQueryOptions } from './queries';

/** The most contacts counted one by one before the dialog says "up to". */
const COUNT_PAGE = 500;

function Fact({ icon, label, children, testId }: { icon: ReactNode; label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="relative min-w-0 py-2.5 pl-10" data-testid={testId}>
      <dt className="text-xs font-medium tracking-wide text-fg-subtle uppercase">
        <span aria-hidden="true" className="absolute top-3 left-0 flex size-7 items-center justify-center rounded-md bg-muted text-fg-subtle [&_svg]:size-4">
          {icon}
        </span>
        {label}
      </dt>
      <dd className="text-sm text-fg">{children}</dd>
    </div>
  );
}

/** Asks before a run starts, saying whom it will call, when, and within which caps. */
export function RunDialog({ open, onOpenChange, team, workflow, onStarted, unsaved = false }: { open: boolean; onOpenChange: (open: boolean) => void; team: Organization; workflow: Workflow; onStarted?: (job: Job) => void; unsaved?: boolean }) {
  const queryClient = useQueryClient();
  const node = contactsNode(workflow);
  const csvParams = { workflowId: workflow.id, page: 1, pageSize: COUNT_PAGE };
  const contacts = useQuery({
    queryKey: getGetWorkflowCsvQueryKey(node?.id ?? '', csvParams),
    queryFn: async ({ signal }) => getWorkflowCsv(node!.id, csvParams, { signal }),
    enabled: open && node?.source === 'csv',
    staleTime: 0,
  });
  const campaign = useQuery({ ...campaignQueryOptions(workflow.campaignId ?? ''), enabled: open && !!workflow.campaignId });
  const billing = can(team.myRole, 'viewBilling').allowed;
  const credits = useQuery({ ...creditsQueryOptions(team.id), enabled: open && billing });
  const run = useMutation(runMutationOptions(queryClient));
  // Whether anything can be dialled now, by the dialer's rules on the server; a preview that
  // fails says nothing (the run itself answers with its reasons).
  const preview = useQuery({ ...runPreviewQueryOptions(workflow.id), enabled: open });
  const waitNote = preview.data?.message ?? null;

  const settings = workflow.campaignId ? campaign.data?.settings : DEFAULT_RUN_SETTINGS;
  const count = contacts.data ? countContacts(contacts.data.data.rows, contacts.data.meta) : null;
  const parsing = contacts.data?.data.status === 'parsing';
  const problems = workflow.problems ?? [];
  const nothingToCall = count !== null && count.exact && count.toCall === 0;

  let contactsText: ReactNode;
  if (!node || !node.source) contactsText = <span className="text-warning-fg">No contact source added. Please add a contact source to run your workflow.</span>;
  else if (node.source !== 'csv') contactsText = `Every contact ${node.source === 'hubspot' ? 'HubSpot' : 'Zapier'} provides that was not called yet.`;
  else if (contacts.isPending) contactsText = <Skeleton className="h-4 w-40" />;
  else if (contacts.isError) contactsText = <span className="text-danger-fg">{errorMessage(contacts.error)}</span>;
  else if (count)
    contactsText = (
      <>
        <span className="font-semibold" data-testid="run-contact-count">
          {formatCount(count)}
        </span>{' '}
        will be called{count.exact ? ` (of ${count.total} on the list; contacts already called are not called again)` : ': contacts already called are skipped'}.
        {parsing && <span className="block text-warning-fg">The CSV is still being read: wait until it is done to run.</span>}
      </>
    );

  const start = () =>
    run.mutate(
      { workflowId: workflow.id, organizationId: team.id },
      {
        onSuccess: (job) => {
          toast.success(`${workflow.name} is running.`);
          onOpenChange(false);
          onStarted?.(job);
        },
      },
    );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) run.reset();
        onOpenChange(next);
      }}
    >
      <DialogContent title={`Run ${workflow.name}?`} description="The agent calls each contact of this workflow, following the flow on the canvas. Check whom it calls and when before you start.">
        <dl className="divide-y divide-line-soft rounded-lg border border-line px-3" aria-label="What this run will do">
          <Fact icon={<Users />} label="Contacts" testId="run-contacts">
            {contactsText}
          </Fact>
          <Fact icon={<CalendarClock />} label="Calling window" testId="run-window">
            {settings ? (
              <>
                {formatWindow(settings)}
                <span className="block text-xs text-fg-subtle">Read in each contact’s own time zone (this one when it is unknown). A contact outside the window waits until it opens; nobody is called at night.</span>
              </>
            ) : campaign.isError ? (
              <span className="text-danger-fg">{errorMessage(campaign.error)}</span>
            ) : (
              <Skeleton className="h-4 w-48" />
            )}
          </Fact>
          <Fact icon={<Gauge />} label="Caps" testId="run-caps">
            {settings ? (
              <>
                At most {settings.maxConcurrentCalls} {settings.maxConcurrentCalls === 1 ? 'call' : 'calls'} at once{workflow.campaignId ? ' (campaign setting)' : ' (default settings: this workflow is in no campaign)'}, and never more than the team&apos;s plan allows.
                <span className="block">{formatRetries(settings)}.</span>
                <span className="block">Each call ends after at most {settings.maxCallDurationMinutes} minutes: Betty hangs up a call that reaches it.</span>
              </>
            ) : (
              <Skeleton className="h-4 w-48" />
            )}
          </Fact>
          <Fact icon={<PhoneOff />} label="Do-not-call list">
            Numbers on the team&apos;s{' '}
            <Link className="text-accent-fg underline" to={teamPath('/dashboard/do-not-call', team.id)}>
              do-not-call list
            </Link>{' '}
            are never dialled; they end as suppressed.
          </Fact>
          {billing && (
            <Fact icon={<Coins />} label="Credits">
              {credits.data ? (
                <>
                  {credits.data.balance.toLocaleString('en-US', { maximumFractionDigits: 2 })} credits left. The run pauses itself when the balance cannot cover the next call.
                </>
              ) : credits.isError ? (
                <span className="text-fg-muted">The balance could not be read; the run pauses itself when credits run out.</span>
              ) : (
                <Skeleton className="h-4 w-32" />
              )}
            </Fact>
          )}
        </dl>
        {waitNote && (
          <div role="note" data-testid="run-waiting" className="mt-4 flex gap-2 rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
            <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
            <p>
              <span className="font-semibold">Nothing can be dialled right now.</span> {waitNote} You can start the run now: it waits and calls by itself.
            </p>
          </div>
        )}
        {unsaved && (
          <div role="note" className="mt-4 rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
            Some changes on the canvas are not saved yet: the run follows the last saved version. Save first to run what you see.
          </div>
        )}
        {problems.length > 0 && (
          <div role="note" className="mt-4 rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
            {problems.length === 1 ? 'One thing stops this workflow from running' : `${problems.length} things stop this workflow from running`}: {problems.slice(0, 3).map((p) => p.message).join(' · ')}
          </div>
        )}
        {run.isError && (
          <div role="alert" className="mt-4 rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
            {errorMessage(run.error)}
          </div>
        )}
        <DialogFooter>
          <Button variant="secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </Button>
          <Button onClick={start} busy={run.isPending} busyLabel="Starting…" disabled={nothingToCall || parsing}>
            {run.isError ? <RotateCw aria-hidden="true" /> : null}
            {count?.exact ? `Call ${formatCount(count)}` : 'Start the run'}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Activity, CircleStop, Clock, Radio } from 'lucide-react';
import { useState } from 'react';

import type { Job, Organization } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { FALLBACK_POLL_MS, useStreamStatus } from '../../lib/events';
import { can } from '../../lib/roles';
import { jobStatus, percentDone, progressCounters } from './progress';
import { ExportCallsButton } from './ExportCallsButton';
import { endJobMutationOptions, progressQueryOptions } from './queries';

/** The counters and bar of one job. */
export function JobProgressView({ job }: { job: Job }) {
  const percent = percentDone(job.progress);
  const counters = progressCounters(job.progress);
  return (
    <div className="space-y-3">
      <div>
        <div className="flex items-center justify-between text-xs text-fg-muted">
          <span>{percent}% handled</span>
          <span>{job.progress.total.toLocaleString('en-US')} contacts</span>
        </div>
        <div role="progressbar" aria-label="Run progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="mt-1 h-2 overflow-hidden rounded-full bg-muted">
          <div className="h-full rounded-full bg-accent transition-[width] motion-reduce:transition-none" style={{ width: `${percent}%` }} />
        </div>
      </div>
      {job.status === 'in-progress' && job.waiting && job.waiting.length > 0 && (
        <ul className="space-y-1 rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg" aria-label="Why contacts wait" data-testid="job-waiting">
          {job.waiting.map((w) => (
            <li key={w.reason} className="flex gap-2" data-reason={w.reason}>
              <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
              <span>{w.message}.</span>
            </li>
          ))}
        </ul>
      )}
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="job-counters">
        {counters.map((c) => (
          <div key={c.key} className="rounded-lg border border-line-soft bg-subtle px-3 py-2" title={c.hint || undefined} data-counter={c.key}>
            <dt className="text-xs text-fg-muted">{c.label}</dt>
            <dd className="text-lg font-semibold text-fg tabular-nums">{c.value.toLocaleString('en-US')}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/**
 * The workflow's current (or latest) run, live: the event stream writes each update into the
 * cache; without the stream a job in progress is polled every 5 s (spec section 9).
 */
export function JobPanel({ team, workflowId }: { team: Organization; workflowId: string }) {
  const queryClient = useQueryClient();
  const stream = useStreamStatus();
  const progress = useQuery({
    ...progressQueryOptions(workflowId),
    refetchInterval: (q) => (stream !== 'open' && q.state.data?.status === 'in-progress' ? FALLBACK_POLL_MS.jobs : false),
  });
  const end = useMutation(endJobMutationOptions(queryClient));
  const [confirming, setConfirming] = useState(false);
  const edit = can(team.myRole, 'editCalling');
  const job = progress.data;

  let body;
  if (progress.isPending) body = <SkeletonText label="Loading the latest run…" lines={3} />;
  else if (progress.isError) body = <ErrorState error={progress.error} onRetry={() => void progress.refetch()} />;
  else if (!job)
    body = (
      <p className="py-2 text-sm text-fg-muted" data-testid="no-run">
        This workflow has not run yet. Choose Run to call its contacts, or Test run to call your own phone first.
      </p>
    );
  else {
    const status = jobStatus(job);
    body = (
      <div className="space-y-3" data-testid="job-panel" data-job-id={job.id} data-status={job.status}>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <Badge tone={status.tone}>{status.label}</Badge>
            {job.isTest && <Badge tone="info">Test run</Badge>}
            <span className="text-fg-muted">
              Started {formatDateTime(job.startedAt)} by {job.triggeredBy}
              {job.finishedAt ? ` · finished ${formatDateTime(job.finishedAt)}` : ''}
            </span>
          </div>
          {job.status === 'in-progress' && !job.isTest && edit.allowed && (
            <Button variant="secondary" size="sm" onClick={() => setConfirming(true)}>
              <CircleStop aria-hidden="true" />
              End job
            </Button>
          )}
        </div>
        {job.error && (
          <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
            {job.error}
          </p>
        )}
        <JobProgressView job={job} />
        {!job.isTest && <ExportCallsButton jobId={job.id} />}
      </div>
    );
  }

  return (
    <section aria-labelledby={`run-${workflowId}`} className="space-y-3">
      <div className="flex items-center gap-2">
        <Activity aria-hidden="true" className="size-4 text-fg-subtle" />
        <h2 id={`run-${workflowId}`} className="font-semibold text-fg">
          Latest run
        </h2>
        {job?.status === 'in-progress' && (
          <span className="inline-flex items-center gap-1 text-xs text-fg-muted" title={stream === 'open' ? 'Updates arrive as they happen' : 'Checked every 5 seconds'}>
            <Radio aria-hidden="true" className="size-3.5 text-success-fg" />
            {stream === 'open' ? 'Live' : 'Every 5 s'}
          </span>
        )}
      </div>
      <div aria-live="polite">{body}</div>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="End this run?"
        description="No new call is placed. Calls already connected finish normally, and contacts not called yet stay pending: a later run calls them."
        confirmLabel="End job"
        busy={end.isPending}
        onConfirm={() =>
          end.mutate(
            { workflowId },
            {
              onSuccess: () => {
                setConfirming(false);
                toast.success('The run was ended.');
              },
              onError: (e) => toast.error(e),
            },
          )
        }
      />
    </section>
  );
}

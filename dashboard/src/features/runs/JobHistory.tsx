import { History } from 'lucide-react';

import type { Job } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { formatDateTime } from '../../lib/dates';
import { usePollInterval } from '../../lib/events';
import { usePagedList } from '../../lib/usePagedList';
import { ExportCallsButton } from './ExportCallsButton';
import { jobStatus } from './progress';
import { historyQueryOptions } from './queries';

const COLUMNS: Column<Job>[] = [
  { key: 'started', header: 'Started', cell: (j) => formatDateTime(j.startedAt) },
  {
    key: 'status',
    header: 'Status',
    cell: (j) => {
      const s = jobStatus(j);
      return (
        <span className="inline-flex flex-wrap gap-1">
          <Badge tone={s.tone}>{s.label}</Badge>
          {j.isTest && <Badge tone="info">Test</Badge>}
        </span>
      );
    },
  },
  { key: 'progress', header: 'Handled', cell: (j) => <span className="tabular-nums">{`${(j.progress.completed + j.progress.failed).toLocaleString('en-US')} / ${j.progress.total.toLocaleString('en-US')}`}</span> },
  { key: 'by', header: 'Started by', cell: (j) => <span className="break-all">{j.triggeredBy}</span>, hideOnMobile: true },
  { key: 'finished', header: 'Finished', cell: (j) => formatDateTime(j.finishedAt), hideOnMobile: true },
  {
    key: 'calls',
    header: 'Calls',
    cell: (j) => (j.isTest ? null : <ExportCallsButton jobId={j.id} label={`Download the calls of the run started ${formatDateTime(j.startedAt)} (CSV)`} />),
    hideOnMobile: true,
  },
];

/** The workflow's runs, 10 a page newest first; refreshed every 60 s without the event stream. `compact` (a side panel) keeps the first three columns. */
export function JobHistory({ workflowId, compact = false }: { workflowId: string; compact?: boolean }) {
  const interval = usePollInterval('jobHistory');
  const list = usePagedList((page) => historyQueryOptions(workflowId, page), { param: 'historyPage', ...(interval ? { refetchInterval: interval } : {}) });
  const q = list.query;
  return (
    <section aria-labelledby={`history-${workflowId}`} className="space-y-3">
      <div className="flex items-center gap-2">
        <History aria-hidden="true" className="size-4 text-fg-subtle" />
        <h2 id={`history-${workflowId}`} className="font-semibold text-fg">
          Run history
        </h2>
      </div>
      {q.isPending ? (
        <SkeletonList label="Loading the run history…" rows={3} columns={3} />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.data.length === 0 ? (
        <EmptyState icon={<History />} title="No runs yet">
          Every run and test run of this workflow is listed here, newest first.
        </EmptyState>
      ) : (
        <DataTable caption="Runs of this workflow" columns={compact ? COLUMNS.filter((c) => !c.hideOnMobile) : COLUMNS} rows={q.data.data} rowKey={(j) => j.id} pageInfo={q.data.meta} onPageChange={list.setPage} />
      )}
    </section>
  );
}

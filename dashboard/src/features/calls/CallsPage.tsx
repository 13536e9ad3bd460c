import { useQuery } from '@tanstack/react-query';
import { BarChart3, PhoneCall, PhoneIncoming, PhoneOutgoing } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';

import type { CallLog } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Skeleton, SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/dates';
import { usePollInterval } from '../../lib/events';
import { usePagedList } from '../../lib/usePagedList';
import { useCurrentTeam } from '../team/TeamContext';
import { CallDetail } from './CallDetail';
import { DailyCallsChart } from './DailyCallsChart';
import { callStatus, formatCost, formatDuration, lastDays, rangeProblem, SIMULATED_HINT } from './format';
import { callLogsQueryOptions, statisticsQueryOptions } from './queries';
import { count } from '../../lib/plural';

/** With `callLogId` set to `id` (or cleared), keeping the other parameters. */
function withCall(params: URLSearchParams, id: string | null): string {
  const next = new URLSearchParams(params);
  if (id) next.set('callLogId', id);
  else next.delete('callLogId');
  return `?${next.toString()}`;
}

/** The calls per day over a range (the last 7 days unless `from`/`to` say otherwise). */
function CallsPerDay({ teamId }: { teamId: string }) {
  const [params, setParams] = useSearchParams();
  const fallback = lastDays(7);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const range = from && to && !rangeProblem(from, to) ? { startDate: from, endDate: to } : {};
  const stats = useQuery(statisticsQueryOptions(teamId, range));
  const [draft, setDraft] = useState({ from: from || fallback.startDate, to: to || fallback.endDate });
  const problem = rangeProblem(draft.from, draft.to);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setParams((p) => {
      const next = new URLSearchParams(p);
      next.set('from', draft.from);
      next.set('to', draft.to);
      return next;
    });
  };
  const preset = (days: number) => {
    const r = lastDays(days);
    setDraft({ from: r.startDate, to: r.endDate });
    setParams((p) => {
      const next = new URLSearchParams(p);
      if (days === 7) {
        next.delete('from');
        next.delete('to');
      } else {
        next.set('from', r.startDate);
        next.set('to', r.endDate);
      }
      return next;
    });
  };
  const data = stats.data;
  return (
    <Card as="section" aria-labelledby="calls-per-day">
      <CardHeader
        id="calls-per-day"
        icon={<BarChart3 />}
        title="Calls per day"
        description={data ? `${count(data.totalCalls, 'call')} from ${data.startDate} to ${data.endDate} (UTC days)` : 'Calls started each day, inbound and outbound.'}
      />
      <CardBody className="space-y-4">
        <form onSubmit={apply} className="flex flex-wrap items-end gap-2" aria-label="Date range">
          <div className="flex gap-1" role="group" aria-label="Presets">
            <Button size="sm" variant="ghost" onClick={() => preset(7)}>
              7 days
            </Button>
            <Button size="sm" variant="ghost" onClick={() => preset(30)}>
              30 days
            </Button>
          </div>
          <label className="text-xs text-fg-muted">
            From
            <Input type="date" className="mt-1 w-auto" value={draft.from} max={draft.to} onChange={(e) => setDraft({ ...draft, from: e.target.value })} aria-invalid={!!problem || undefined} />
          </label>
          <label className="text-xs text-fg-muted">
            To
            <Input type="date" className="mt-1 w-auto" value={draft.to} min={draft.from} onChange={(e) => setDraft({ ...draft, to: e.target.value })} aria-invalid={!!problem || undefined} />
          </label>
          <Button size="sm" variant="secondary" type="submit" disabled={!!problem}>
            Show
          </Button>
          {problem && (
            <p role="alert" className="w-full text-xs text-danger-fg">
              {problem}
            </p>
          )}
        </form>
        {stats.isPending ? (
          <div role="status">
            <span className="sr-only">Loading the calls per day…</span>
            <Skeleton className="h-40 w-full" />
          </div>
        ) : stats.isError ? (
          <ErrorState error={stats.error} onRetry={() => void stats.refetch()} />
        ) : (
          <DailyCallsChart days={stats.data.dailyData} label={`Calls per day from ${stats.data.startDate} to ${stats.data.endDate}`} />
        )}
      </CardBody>
    </Card>
  );
}

/** /dashboard/calls: the team's calls (10 a page), the one chosen by `callLogId`, and the calls per day. */
export default function CallsPage() {
  const team = useCurrentTeam();
  const [params] = useSearchParams();
  const selected = params.get('callLogId');
  const interval = usePollInterval('calls');
  const list = usePagedList((page) => callLogsQueryOptions(team.id, page), {
    // Without the event stream, a page with a call in progress is read again (decision: 10 s).
    refetchInterval: (data) => (interval && data?.data.some((c) => c.endTime === null) ? interval : 0),
  });
  const q = list.query;

  const columns: Column<CallLog>[] = [
    {
      key: 'when',
      header: 'Call',
      cell: (c) => {
        const outbound = c.direction === 'outbound';
        const Icon = outbound ? PhoneOutgoing : PhoneIncoming;
        return (
          <Link
            to={withCall(params, c.id)}
            aria-current={c.id === selected ? 'true' : undefined}
            className={cn('flex items-center gap-2 rounded-sm hover:text-accent-fg', c.id === selected ? 'font-semibold text-accent-fg' : 'text-fg')}
            data-testid={`call-row-${c.id}`}
          >
            <Icon aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
            <span className="min-w-0">
              <span className="block">{outbound ? c.to : c.from}</span>
              <span className="block text-xs font-normal text-fg-muted">{formatDateTime(c.startTime)}</span>
            </span>
          </Link>
        );
      },
    },
    {
      key: 'status',
      header: 'Status',
      cell: (c) => {
        const s = callStatus(c.status);
        return <Badge tone={s.tone}>{s.label}</Badge>;
      },
    },
    { key: 'duration', header: 'Duration', cell: (c) => <span className="tabular-nums">{formatDuration(c.durationSeconds)}</span>, hideOnMobile: true },
    {
      key: 'cost',
      header: 'Cost',
      cell: (c) => (
        <span className="inline-flex items-center gap-2">
          <span className="tabular-nums">{c.endTime || c.simulated ? formatCost(c.simulated ? 0 : c.cost) : '—'}</span>
          {c.simulated && (
            <span title={SIMULATED_HINT}>
              <Badge tone="neutral">Simulated</Badge>
            </span>
          )}
        </span>
      ),
      hideOnMobile: true,
    },
  ];

  let body;
  if (q.isPending) body = <SkeletonList label="Loading calls…" rows={5} columns={3} />;
  else if (q.isError) body = <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  else if (q.data.data.length === 0)
    body = (
      <EmptyState
        icon={<PhoneCall />}
        title="No calls yet"
        action={
          <Link className="text-sm font-semibold text-accent-fg underline" to={`/dashboard/workflow-canvas?teamId=${encodeURIComponent(team.id)}`}>
            Open your workflows
          </Link>
        }
      >
        Every call your agents make or answer is listed here with its transcript, recording and cost. Run a workflow, or test-run one to your own phone, to make the first.
      </EmptyState>
    );
  else body = <DataTable caption="Calls, newest first" columns={columns} rows={q.data.data} rowKey={(c) => c.id} pageInfo={q.data.meta} onPageChange={list.setPage} />;

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader title="Calls" description="Every call of the team, newest first: choose one to read its transcript and play its recording." />
      <div className="space-y-6">
        <CallsPerDay teamId={team.id} />
        <div className={cn('grid gap-6', selected && 'lg:grid-cols-[minmax(0,1fr)_minmax(0,1.1fr)]')}>
          <div className={cn('min-w-0', selected && 'hidden lg:block')}>{body}</div>
          {selected && (
            <div className="min-w-0">
              <div className="mb-2 flex justify-end lg:hidden">
                <Link className="text-sm text-accent-fg underline" to={withCall(params, null)}>
                  Back to the list
                </Link>
              </div>
              <CallDetail key={selected} team={team} callLogId={selected} />
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

import { Globe, Inbox, Lock, Search, X } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import type { InboxItem, InboxSortBy } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Card } from '../../components/ui/card';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { cn } from '../../lib/cn';
import { formatDateTime } from '../../lib/dates';
import { usePollInterval } from '../../lib/events';
import { usePagedList } from '../../lib/usePagedList';
import { useCurrentTeam } from '../team/TeamContext';
import { InboxItemView } from './InboxItemView';
import { inboxQueryOptions, priorityLabel, SEARCH_DEBOUNCE_MS, type InboxSort } from './queries';
import { useDebouncedValue } from '../../lib/useDebouncedValue';

const SORTS: { value: string; label: string; sort: InboxSort }[] = [
  { value: 'newest', label: 'Newest first', sort: { sortBy: 'createdAt', ascending: false } },
  { value: 'oldest', label: 'Oldest first', sort: { sortBy: 'createdAt', ascending: true } },
  { value: 'priority', label: 'Most urgent first', sort: { sortBy: 'priority', ascending: false } },
  { value: 'title', label: 'Title A–Z', sort: { sortBy: 'title' as InboxSortBy, ascending: true } },
];

function withParam(params: URLSearchParams, name: string, value: string | null): URLSearchParams {
  const next = new URLSearchParams(params);
  if (value) next.set(name, value);
  else next.delete(name);
  return next;
}

function Row({ item, selected, params }: { item: InboxItem; selected: boolean; params: URLSearchParams }) {
  const p = priorityLabel(item.priority);
  return (
    <li>
      <Link
        to={`?${withParam(params, 'inboxId', item.id).toString()}`}
        aria-current={selected ? 'true' : undefined}
        className={cn('block rounded-lg px-3 py-2.5 hover:bg-subtle', selected && 'bg-accent-subtle hover:bg-accent-subtle')}
        data-testid={`inbox-row-${item.id}`}
      >
        <span className="flex items-start justify-between gap-2">
          <span className={cn('min-w-0 text-sm font-medium break-words', selected ? 'text-accent-fg' : 'text-fg')}>{item.title}</span>
          <Badge tone={p.tone} className="shrink-0">
            {p.label}
          </Badge>
        </span>
        {item.summary && <span className="mt-0.5 line-clamp-2 block text-xs text-fg-muted">{item.summary}</span>}
        <span className="mt-1 flex items-center gap-1.5 text-xs text-fg-subtle">
          {item.visibility === 'public' ? <Globe aria-hidden="true" className="size-3.5" /> : <Lock aria-hidden="true" className="size-3.5" />}
          <span>{item.visibility === 'public' ? 'Public' : 'Private'}</span>
          <span aria-hidden="true">·</span>
          <span>{formatDateTime(item.createdAt)}</span>
        </span>
      </Link>
    </li>
  );
}

/** /dashboard/inbox: the outcomes of the team's calls, searched (`searchQuery`, 500 ms after typing stops), one opened (`inboxId`). */
export default function InboxPage() {
  const team = useCurrentTeam();
  const [params, setParams] = useSearchParams();
  const inboxId = params.get('inboxId');
  const searchQuery = params.get('searchQuery') ?? '';
  const sortKey = params.get('sort') ?? 'newest';
  const sort = (SORTS.find((s) => s.value === sortKey) ?? SORTS[0]!).sort;
  const [typed, setTyped] = useState(searchQuery);
  const settled = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (settled.trim() === searchQuery.trim()) return;
    setParams((p) => withParam(withParam(p, 'searchQuery', settled.trim() || null), 'page', null), { replace: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  // Back/forward changes the URL's search: the box follows.
  useEffect(() => setTyped((t) => (t.trim() === searchQuery.trim() ? t : searchQuery)), [searchQuery]);

  const interval = usePollInterval('inbox');
  const list = usePagedList((page) => inboxQueryOptions(team.id, page, searchQuery, sort), interval ? { refetchInterval: interval } : {});
  const q = list.query;
  const rows = q.data?.data ?? [];

  let listBody;
  if (q.isPending) listBody = <SkeletonList label="Loading the inbox…" rows={4} columns={2} />;
  else if (q.isError) listBody = <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  else if (rows.length === 0)
    listBody = searchQuery ? (
      <EmptyState icon={<Search />} title="Nothing matches">
        No item&apos;s title or summary contains &ldquo;{searchQuery}&rdquo;.
      </EmptyState>
    ) : (
      <EmptyState icon={<Inbox />} title="The inbox is empty">
        Every finished call files its outcome here: a summary, what to do next and how urgent it is. Run a workflow to fill it.
      </EmptyState>
    );
  else {
    const meta = q.data!.meta;
    listBody = (
      <Card className="p-1.5">
        <ul aria-label="Inbox items" className={cn('space-y-0.5', list.stale && 'opacity-60')}>
          {rows.map((item) => (
            <Row key={item.id} item={item} selected={item.id === inboxId} params={params} />
          ))}
        </ul>
        {meta.totalPages > 1 && (
          <nav aria-label="Inbox pages" className="flex items-center justify-between gap-2 border-t border-line-soft px-2 pt-2 pb-1 text-xs text-fg-muted">
            <span>
              Showing {meta.start} - {meta.end} of {meta.totalSize}
            </span>
            <span className="flex items-center gap-1">
              <button type="button" className="rounded px-2 py-1 hover:bg-muted disabled:text-fg-faint" disabled={!meta.hasPrevious} onClick={() => list.setPage(meta.page - 1)}>
                Previous
              </button>
              <span>
                Page {meta.page} - {meta.totalPages}
              </span>
              <button type="button" className="rounded px-2 py-1 hover:bg-muted disabled:text-fg-faint" disabled={!meta.hasNext} onClick={() => list.setPage(meta.page + 1)}>
                Next
              </button>
            </span>
          </nav>
        )}
      </Card>
    );
  }

  return (
    <div className="mx-auto w-full max-w-6xl">
      <PageHeader title="Inbox" description="What each call came to, filed when it ended: read it, set how urgent it is, share it by link." />
      <div className="mb-4 flex flex-wrap items-center gap-2">
        <div className="relative w-full min-w-0 sm:w-auto sm:max-w-sm sm:flex-1">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-fg-subtle" />
          <Input type="search" aria-label="Search the inbox" placeholder="Search titles and summaries" className="pl-8" value={typed} maxLength={200} onChange={(e) => setTyped(e.target.value)} />
          {typed && (
            <button type="button" aria-label="Clear the search" className="absolute top-1/2 right-2 -translate-y-1/2 rounded p-0.5 text-fg-subtle hover:text-fg" onClick={() => setTyped('')}>
              <X aria-hidden="true" className="size-4" />
            </button>
          )}
        </div>
        <div className="w-full sm:w-44">
          <Select aria-label="Sort" value={SORTS.some((s) => s.value === sortKey) ? sortKey : 'newest'} options={SORTS.map(({ value, label }) => ({ value, label }))} onValueChange={(v) => setParams((p) => withParam(withParam(p, 'sort', v === 'newest' ? null : v), 'page', null))} />
        </div>
      </div>
      <div className={cn('grid gap-6', inboxId && 'lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)]')}>
        <div className={cn('min-w-0', inboxId && 'hidden lg:block')}>{listBody}</div>
        {inboxId && (
          <div className="min-w-0">
            <div className="mb-2 flex justify-end lg:hidden">
              <Link className="text-sm text-accent-fg underline" to={`?${withParam(params, 'inboxId', null).toString()}`}>
                Back to the inbox
              </Link>
            </div>
            <InboxItemView
              key={inboxId}
              team={team}
              inboxId={inboxId}
              onDeleted={() => {
                setParams((p) => withParam(p, 'inboxId', null));
                list.afterDelete();
              }}
            />
          </div>
        )}
      </div>
    </div>
  );
}

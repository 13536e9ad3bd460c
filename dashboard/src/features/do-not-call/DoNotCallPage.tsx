import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileUp, PhoneOff, Plus, Search, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

import type { DoNotCallEntry } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Input } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { atLeast, can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { SEARCH_DEBOUNCE_MS } from '../inbox/queries';
import { useDebouncedValue } from '../../lib/useDebouncedValue';
import { useCurrentTeam } from '../team/TeamContext';
import { AddNumberDialog, ImportDialog } from './DoNotCallDialogs';
import { doNotCallQueryOptions, removeDoNotCallMutationOptions } from './queries';

const SOURCE: Record<DoNotCallEntry['source'], string> = { manual: 'Added', import: 'Imported', conversation: 'Asked on a call' };

/** /dashboard/do-not-call: the numbers the team never calls. Members add and import; only admins and the owner remove. */
export default function DoNotCallPage() {
  const team = useCurrentTeam();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const [typed, setTyped] = useState(search);
  const settled = useDebouncedValue(typed, SEARCH_DEBOUNCE_MS);
  useEffect(() => {
    if (settled.trim() === search) return;
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (settled.trim()) next.set('search', settled.trim());
        else next.delete('search');
        next.delete('page');
        return next;
      },
      { replace: true },
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  const list = usePagedList((page) => doNotCallQueryOptions(team.id, page, search));
  const remove = useMutation(removeDoNotCallMutationOptions(queryClient));
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);
  const [removing, setRemoving] = useState<DoNotCallEntry | null>(null);
  const edit = can(team.myRole, 'editCalling').allowed;
  const admin = atLeast(team.myRole, 'admin');
  const q = list.query;

  const columns: Column<DoNotCallEntry>[] = [
    { key: 'number', header: 'Number', cell: (e) => <span className="font-medium text-fg tabular-nums">{e.phoneNumber}</span> },
    { key: 'reason', header: 'Reason', cell: (e) => (e.reason ? <span className="break-words">{e.reason}</span> : <span className="text-fg-subtle">No reason given</span>) },
    {
      key: 'by',
      header: 'Added by',
      cell: (e) => (
        <span className="flex flex-col gap-0.5">
          <span className="break-all">{e.source === 'conversation' ? 'The person, during a call' : e.addedBy}</span>
          <span className="flex flex-wrap items-center gap-1 text-xs text-fg-muted">
            <Badge tone={e.source === 'conversation' ? 'info' : 'neutral'}>{SOURCE[e.source]}</Badge>
            {formatDateTime(e.createdAt)}
          </span>
        </span>
      ),
      hideOnMobile: true,
    },
    ...(admin
      ? [
          {
            key: 'remove',
            header: 'Remove',
            className: 'w-12',
            cell: (e: DoNotCallEntry) => (
              <Button size="icon" variant="ghost" aria-label={`Remove ${e.phoneNumber}`} onClick={() => setRemoving(e)}>
                <Trash2 aria-hidden="true" />
              </Button>
            ),
          },
        ]
      : []),
  ];

  const actions = edit ? (
    <>
      <Button variant="secondary" onClick={() => setImporting(true)}>
        <FileUp aria-hidden="true" />
        Import CSV
      </Button>
      <Button onClick={() => setAdding(true)}>
        <Plus aria-hidden="true" />
        Add number
      </Button>
    </>
  ) : undefined;

  let body;
  if (q.isPending) body = <SkeletonList label="Loading the do-not-call list…" rows={4} columns={3} />;
  else if (q.isError) body = <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  else if (q.data.data.length === 0)
    body = search ? (
      <EmptyState icon={<Search />} title="Nothing matches">
        No number contains those digits and no reason contains those words.
      </EmptyState>
    ) : (
      <EmptyState icon={<PhoneOff />} title="Nobody is on the list" action={edit ? <Button onClick={() => setAdding(true)}>Add number</Button> : undefined}>
        Numbers here are never dialled by any run of the team. People who ask not to be called again during a call are added by themselves.
      </EmptyState>
    );
  else body = <DataTable caption="Numbers never called, newest first" columns={columns} rows={q.data.data} rowKey={(e) => e.id} pageInfo={q.data.meta} onPageChange={list.setPage} />;

  return (
    <div className="mx-auto w-full max-w-5xl">
      <PageHeader title="Do-not-call list" description="Numbers no run of this team ever dials. Every dial is checked against it at the moment it is placed." actions={actions} />
      <div className="mb-4 max-w-sm">
        <div className="relative">
          <Search aria-hidden="true" className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-fg-subtle" />
          <Input type="search" aria-label="Search numbers and reasons" placeholder="Digits of a number, or words of a reason" className="pl-8" maxLength={100} value={typed} onChange={(e) => setTyped(e.target.value)} />
        </div>
      </div>
      {body}
      {!admin && q.data && q.data.data.length > 0 && <p className="mt-3 text-xs text-fg-subtle">Only admins and the owner can remove a number: it lifts a person&apos;s wish not to be called.</p>}
      <AddNumberDialog open={adding} onOpenChange={setAdding} organizationId={team.id} />
      <ImportDialog open={importing} onOpenChange={setImporting} organizationId={team.id} />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title={`Remove ${removing?.phoneNumber ?? ''}?`}
        description="Runs may call this number again. Contacts already suppressed stay so."
        confirmLabel="Remove"
        busy={remove.isPending}
        onConfirm={() =>
          removing &&
          remove.mutate(
            { organizationId: team.id, id: removing.id },
            {
              onSuccess: () => {
                toast.success(`${removing.phoneNumber} can be called again.`);
                setRemoving(null);
                list.afterDelete();
              },
              onError: (e) => toast.error(e),
            },
          )
        }
      />
    </div>
  );
}

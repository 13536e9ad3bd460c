import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Globe, Lock, PhoneCall, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import type { InboxVisibility, Organization } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Select } from '../../components/ui/select';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { copyText } from '../../lib/clipboard';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { CallAnalysisView } from '../calls/CallAnalysisView';
import { callLogQueryOptions } from '../calls/queries';
import { teamPath } from '../team/TeamContext';
import { deleteInboxMutationOptions, inboxItemQueryOptions, PRIORITY_CHOICES, priorityLabel, publicLink, updateInboxMutationOptions } from './queries';

/** The priority the select shows for a stored number: the nearest choice at or below it. */
function priorityChoice(priority: number): string {
  return String(PRIORITY_CHOICES.find((c) => priority >= c.value)?.value ?? 0);
}

/** One inbox item: its summary, priority and visibility (changeable by members), the call it came from, delete. */
export function InboxItemView({ team, inboxId, onDeleted }: { team: Organization; inboxId: string; onDeleted: () => void }) {
  const queryClient = useQueryClient();
  const item = useQuery(inboxItemQueryOptions(team.id, inboxId));
  const callLogId = item.data?.callLogId ?? '';
  // The call's analysis: its outcome and the fields the customer answered.
  const call = useQuery({ ...callLogQueryOptions(team.id, callLogId), enabled: callLogId !== '' });
  const update = useMutation(updateInboxMutationOptions(queryClient));
  const remove = useMutation(deleteInboxMutationOptions(queryClient));
  const [confirming, setConfirming] = useState(false);
  const edit = can(team.myRole, 'editCalling');

  if (item.isPending)
    return (
      <Card>
        <CardBody>
          <SkeletonText label="Loading the item…" lines={5} />
        </CardBody>
      </Card>
    );
  if (item.isError) return <ErrorState title="This item could not be shown" error={item.error} onRetry={() => void item.refetch()} />;
  const it = item.data;
  const p = priorityLabel(it.priority);
  const link = publicLink(window.location.origin, it);
  const change = (patch: { priority?: number; visibility?: InboxVisibility }, done: string) =>
    update.mutate({ organizationId: team.id, id: it.id, ...patch }, { onSuccess: () => toast.success(done), onError: (e) => toast.error(e) });

  return (
    <Card as="article" aria-labelledby="inbox-item-title" className="min-w-0">
      <CardHeader
        id="inbox-item-title"
        title={it.title}
        description={`Filed ${formatDateTime(it.createdAt)}`}
        action={
          <span className="flex flex-wrap justify-end gap-1">
            <Badge tone={p.tone}>{p.label}</Badge>
            <Badge tone={it.visibility === 'public' ? 'info' : 'neutral'}>{it.visibility === 'public' ? 'Public' : 'Private'}</Badge>
          </span>
        }
      />
      <CardBody className="space-y-5">
        {it.deleted ? (
          <p role="status" className="rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-sm text-warning-fg">
            This item was deleted{it.deletedAt ? ` on ${formatDateTime(it.deletedAt)}` : ''}.
          </p>
        ) : null}
        <div>
          <h3 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">Summary</h3>
          <p className="mt-1 text-sm whitespace-pre-wrap break-words text-fg" data-testid="inbox-summary">
            {it.summary || 'No summary was written for this call.'}
          </p>
        </div>
        {call.data?.analysis && (
          <div>
            <h3 className="text-xs font-semibold tracking-wide text-fg-subtle uppercase">What the call established</h3>
            <div className="mt-1">
              <CallAnalysisView analysis={call.data.analysis} showSummary={false} />
            </div>
          </div>
        )}
        {it.callLogId && (
          <Link className="inline-flex items-center gap-1.5 text-sm font-medium text-accent-fg underline" to={teamPath(`/dashboard/calls?callLogId=${encodeURIComponent(it.callLogId)}`, team.id)}>
            <PhoneCall aria-hidden="true" className="size-4" />
            Open the call: transcript and recording
          </Link>
        )}
        {!it.deleted && edit.allowed && (
          <div className="grid gap-4 sm:grid-cols-2">
            <div className="space-y-1.5">
              <span className="block text-sm font-medium text-fg">
                Priority
              </span>
              <Select
                aria-label="Priority"
                value={priorityChoice(it.priority)}
                disabled={update.isPending}
                options={PRIORITY_CHOICES.map((c) => ({ value: String(c.value), label: c.label }))}
                onValueChange={(v) => change({ priority: Number(v) }, 'Priority changed.')}
              />
            </div>
            <div className="space-y-1.5">
              <span className="block text-sm font-medium text-fg">Visibility</span>
              <div role="group" aria-label="Visibility" className="inline-flex rounded-md border border-line-strong p-0.5">
                {(['private', 'public'] as const).map((v) => (
                  <button
                    key={v}
                    type="button"
                    aria-pressed={it.visibility === v}
                    disabled={update.isPending}
                    onClick={() => it.visibility !== v && change({ visibility: v }, v === 'public' ? 'Anyone with the link can read this item now.' : 'Only your team can read this item now.')}
                    className={`inline-flex items-center gap-1.5 rounded px-3 py-1.5 text-sm font-medium ${it.visibility === v ? 'bg-accent text-white' : 'text-fg-soft hover:bg-muted'}`}
                  >
                    {v === 'public' ? <Globe aria-hidden="true" className="size-4" /> : <Lock aria-hidden="true" className="size-4" />}
                    {v === 'public' ? 'Public' : 'Private'}
                  </button>
                ))}
              </div>
            </div>
          </div>
        )}
        {!it.deleted && it.visibility === 'public' && (
          <div className="space-y-1.5">
            <span className="block text-sm font-medium text-fg">Share link</span>
            <div className="flex gap-2">
              <code className="min-w-0 flex-1 truncate rounded-md border border-line bg-subtle px-2 py-1.5 text-xs" data-testid="inbox-public-link">
                {link}
              </code>
              <Button size="sm" variant="secondary" onClick={() => void copyText(link, 'Link copied.')}>
                <Copy aria-hidden="true" />
                Copy
              </Button>
            </div>
            <p className="text-xs text-fg-subtle">Anyone with this link can read the title and summary, without signing in.</p>
          </div>
        )}
        {!it.deleted && edit.allowed && (
          <div className="border-t border-line-soft pt-4">
            <Button variant="ghost" className="text-danger-fg" onClick={() => setConfirming(true)}>
              <Trash2 aria-hidden="true" />
              Delete item
            </Button>
          </div>
        )}
      </CardBody>
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Delete this inbox item?"
        description="It leaves the inbox, searches and its public link. The call and its recording are kept."
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(
            { organizationId: team.id, id: it.id },
            {
              onSuccess: () => {
                setConfirming(false);
                toast.success('The item was deleted.');
                onDeleted();
              },
              onError: (e) => toast.error(e),
            },
          )
        }
      />
    </Card>
  );
}

import { useQuery } from '@tanstack/react-query';
import { Inbox } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import { isApiError } from '../../api/mutator';
import { Badge } from '../../components/ui/badge';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { SkeletonText } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { formatDateTime } from '../../lib/dates';
import { priorityLabel, publicInboxItemQueryOptions } from './queries';

/** /inbox?inboxId=…&organizationId=…: an inbox item its team made public, readable without signing in. */
export default function PublicInboxPage() {
  const [params] = useSearchParams();
  const inboxId = params.get('inboxId') ?? '';
  const organizationId = params.get('organizationId') ?? '';
  const item = useQuery({ ...publicInboxItemQueryOptions(organizationId, inboxId), enabled: !!inboxId && !!organizationId });

  let body;
  if (!inboxId || !organizationId)
    body = (
      <EmptyState icon={<Inbox />} title="This link is incomplete">
        A shared inbox link names the item and its team. Ask whoever sent it for the whole link.
      </EmptyState>
    );
  else if (item.isPending) body = <Card><CardBody><SkeletonText label="Loading the shared item…" lines={4} /></CardBody></Card>;
  else if (item.isError)
    body =
      isApiError(item.error) && item.error.status === 404 ? (
        <EmptyState icon={<Inbox />} title="Nothing to show here">
          This item is not shared, or it no longer exists. Ask whoever sent the link to share it again.
        </EmptyState>
      ) : (
        <ErrorState error={item.error} onRetry={() => void item.refetch()} />
      );
  else {
    const p = priorityLabel(item.data.priority);
    body = (
      <Card as="article" aria-labelledby="public-item-title">
        <CardHeader id="public-item-title" title={item.data.title} description={`Filed ${formatDateTime(item.data.createdAt)}`} action={<Badge tone={p.tone}>{p.label}</Badge>} />
        <CardBody>
          <p className="text-sm whitespace-pre-wrap break-words text-fg" data-testid="public-inbox-summary">
            {item.data.summary || 'No summary was written for this call.'}
          </p>
        </CardBody>
      </Card>
    );
  }

  return (
    <div className="mx-auto w-full max-w-2xl px-4 py-10">
      <title>{item.data ? `${item.data.title} · Betty` : 'Shared inbox item · Betty'}</title>
      <p className="mb-2 text-xs font-semibold tracking-wider text-accent-fg uppercase">Shared call outcome</p>
      <h1 className="mb-6 text-2xl font-semibold tracking-tight text-fg">Inbox item</h1>
      {body}
      <p className="mt-6 text-xs text-fg-subtle">
        Shared from a team on Betty, AI voice agents for phone calls. <Link className="underline" to="/">About Betty</Link>
      </p>
    </div>
  );
}

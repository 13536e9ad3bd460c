import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Bell, ExternalLink, KeyRound, LayoutTemplate, Zap } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { isApiError } from '../../api/mutator';
import type { ZapierDelivery, ZapierHook, ZapierStep, ZapierZap } from '../../api/gen/model';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { PageHeader } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { DataTable, type Column } from '../../components/ui/table';
import { errorMessage } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { connectedAppsQueryOptions } from '../apps/queries';
import { useIntegrationSetup } from '../system/integrations';
import { connectZapierMutationOptions, disconnectZapierMutationOptions, zapierHooksQueryOptions, zapierTemplatesQueryOptions, zapierZapsQueryOptions } from './queries';

const STATE: Record<ZapierZap['state'], { label: string; tone: 'success' | 'neutral' | 'warning' }> = { on: { label: 'On', tone: 'success' }, off: { label: 'Off', tone: 'neutral' }, draft: { label: 'Draft', tone: 'warning' } };

/** Why Zapier's part of the page is empty, in words for the person. */
function zapierProblem(error: unknown): string {
  // 503 is both "Zapier is unreachable" and "this server has no Zapier credentials"; the server's detail says which.
  if (isApiError(error) && (error.status === 501 || error.status === 503)) return `${errorMessage(error)} Zaps that use an API key work all the same.`;
  return errorMessage(error);
}

function Steps({ steps }: { steps: ZapierStep[] }) {
  if (steps.length === 0) return null;
  return (
    <span className="flex flex-wrap items-center gap-1 text-xs text-fg-subtle">
      {steps.map((s, i) => (
        <span key={`${s.title}-${i}`} className="inline-flex items-center gap-1">
          {i > 0 && <span aria-hidden="true">→</span>}
          {s.imageUrl && <img src={s.imageUrl} alt="" className="size-4 rounded-sm" loading="lazy" />}
          {s.title}
        </span>
      ))}
    </span>
  );
}

function Templates({ organizationId }: { organizationId: string }) {
  const templates = useQuery(zapierTemplatesQueryOptions(organizationId));
  let body;
  if (templates.isPending) body = <SkeletonList label="Loading Zapier templates…" rows={3} columns={2} />;
  else if (templates.isError) body = <p className="text-sm text-fg-muted">{zapierProblem(templates.error)}</p>;
  else if (templates.data.length === 0) body = <p className="text-sm text-fg-muted">Zapier lists no template for Betty&apos;s app yet.</p>;
  else
    body = (
      <ul className="divide-y divide-line-soft">
        {templates.data.map((t) => (
          <li key={t.id} className="flex flex-wrap items-start justify-between gap-3 py-3 first:pt-0 last:pb-0">
            <div className="min-w-0 flex-1">
              <p className="font-medium text-fg">{t.title}</p>
              {t.description && <p className="mt-0.5 text-sm text-fg-muted">{t.description}</p>}
              <Steps steps={t.steps} />
            </div>
            <a href={t.url} target="_blank" rel="noopener noreferrer" className={buttonClasses('secondary', 'sm')}>
              Open in Zapier
              <ExternalLink aria-hidden="true" />
            </a>
          </li>
        ))}
      </ul>
    );
  return (
    <Card as="section" aria-labelledby="zapier-templates">
      <CardHeader id="zapier-templates" icon={<LayoutTemplate />} title="Templates" description="Ready-made zaps that use Betty. Each opens in Zapier, where you finish it." />
      <CardBody>{body}</CardBody>
    </Card>
  );
}

function Zaps({ organizationId, connected }: { organizationId: string; connected: boolean }) {
  const list = usePagedList((page) => zapierZapsQueryOptions(organizationId, page), { param: 'zapsPage', enabled: connected });
  const q = list.query;
  const columns: Column<ZapierZap>[] = [
    {
      key: 'title',
      header: 'Zap',
      cell: (z) => (
        <span className="flex flex-col gap-0.5">
          <a href={z.url} target="_blank" rel="noopener noreferrer" className="font-medium text-fg underline-offset-2 hover:underline">
            {z.title || 'Untitled zap'}
          </a>
          <Steps steps={z.steps} />
        </span>
      ),
    },
    { key: 'state', header: 'State', cell: (z) => <Badge tone={STATE[z.state].tone}>{STATE[z.state].label}</Badge> },
    { key: 'modified', header: 'Last changed', cell: (z) => (z.modifiedAt ? formatDateTime(z.modifiedAt) : 'Not given'), hideOnMobile: true },
  ];
  let body;
  if (!connected) body = <p className="text-sm text-fg-muted">Connect Zapier to list the zaps of your Zapier account that use Betty here.</p>;
  else if (q.isPending) body = <SkeletonList label="Loading your zaps…" rows={4} columns={3} />;
  else if (q.isError) body = <p className="text-sm text-fg-muted">{zapierProblem(q.error)}</p>;
  else if (q.data.data.length === 0) body = <p className="text-sm text-fg-muted">No zap of your Zapier account uses Betty yet. Start from a template above.</p>;
  else body = <DataTable caption="Your zaps that use Betty, most recently changed first" columns={columns} rows={q.data.data} rowKey={(z) => z.id} pageInfo={q.data.meta} onPageChange={list.setPage} />;
  return (
    <Card as="section" aria-labelledby="zapier-zaps">
      <CardHeader id="zapier-zaps" icon={<Zap />} title="Your zaps" description="Zaps of the connected Zapier account that use Betty, 4 a page." />
      <CardBody>{body}</CardBody>
    </Card>
  );
}

const EVENTS: Record<ZapierHook['event'], string> = {
  'call.completed': 'A call finished',
  'job.finished': 'A workflow run finished',
  'inbox.item.created': 'An inbox item was added',
  'contact.added': 'A contact was added by a zap',
};

/** The triggers zaps subscribed to; the hook address is the zap's secret, so only its host shows. */
function Hooks({ organizationId }: { organizationId: string }) {
  const hooks = useQuery(zapierHooksQueryOptions(organizationId));
  const columns: Column<ZapierHook>[] = [
    { key: 'event', header: 'Trigger', cell: (h) => <span className="font-medium text-fg">{EVENTS[h.event] ?? h.event}</span> },
    { key: 'to', header: 'Delivered to', cell: (h) => <span className="break-all text-fg-muted">{hostOf(h.hookUrl)}</span>, hideOnMobile: true },
    { key: 'since', header: 'Since', cell: (h) => formatDateTime(h.createdAt), hideOnMobile: true },
    { key: 'last', header: 'Last event', cell: (h) => <LastDelivery delivery={h.lastDelivery} /> },
  ];
  let body;
  if (hooks.isPending) body = <SkeletonList label="Loading triggers…" rows={2} columns={3} />;
  else if (hooks.isError) body = <p className="text-sm text-fg-muted">{errorMessage(hooks.error)}</p>;
  else if (hooks.data.length === 0) body = <p className="text-sm text-fg-muted">No zap listens to Betty yet. Turning on a zap with a Betty trigger subscribes it here.</p>;
  else body = <DataTable caption="Triggers zaps listen to, newest first" columns={columns} rows={hooks.data} rowKey={(h) => h.id} />;
  return (
    <Card as="section" aria-labelledby="zapier-hooks">
      <CardHeader id="zapier-hooks" icon={<Bell />} title="Triggers in use" description="Betty posts each event to these zaps, retrying when Zapier does not answer." />
      <CardBody>{body}</CardBody>
    </Card>
  );
}

const DELIVERY: Record<ZapierDelivery['status'], { label: string; tone: BadgeTone }> = {
  delivered: { label: 'Delivered', tone: 'success' },
  pending: { label: 'Retrying', tone: 'warning' },
  failed: { label: 'Failed', tone: 'declined' },
};

/** How a hook's latest event went: delivered, being retried, or refused by every try, and why. */
function LastDelivery({ delivery }: { delivery?: ZapierDelivery | null | undefined }) {
  if (!delivery) return <span className="text-fg-muted">None yet</span>;
  const d = DELIVERY[delivery.status];
  // A delivery not tried yet is on its way, not retrying.
  const label = delivery.status === 'pending' && delivery.attempts === 0 ? 'Sending' : d.label;
  return (
    <span className="flex flex-col gap-0.5">
      <span className="flex items-center gap-2">
        <Badge tone={d.tone}>{label}</Badge>
        <span className="text-xs text-fg-muted">{formatDateTime(delivery.updatedAt)}</span>
      </span>
      {delivery.status !== 'delivered' && delivery.error && <span className="text-xs text-fg-muted">{delivery.error}</span>}
    </span>
  );
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'Zapier';
  }
}

function ApiKeyGuide({ teamId }: { teamId: string }) {
  return (
    <Card as="section" aria-labelledby="zapier-guide">
      <CardHeader id="zapier-guide" icon={<KeyRound />} title="Use Betty in a zap" description="Zaps talk to Betty with one of the team's API keys, not with this connection." />
      <CardBody className="space-y-3 text-sm text-fg-soft">
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            Create an API key for Zapier on the{' '}
            <Link to={teamPath('/dashboard/api-keys', teamId)} className="text-accent-fg underline underline-offset-2">
              API keys page
            </Link>{' '}
            (developer role is enough). Copy it: it is shown once.
          </li>
          <li>In Zapier, add Betty&apos;s app to a zap and paste the key when Zapier asks to connect an account.</li>
          <li>Triggers start a zap when a call finishes, an inbox item is added, a workflow job finishes or a contact is added. Zapier subscribes to them by itself.</li>
          <li>
            The action <em>Add contacts</em> sends contacts into a workflow: set that workflow&apos;s Contacts node source to Zapier first. Numbers are checked as in a CSV file, and the do-not-call list and calling hours still apply.
          </li>
        </ol>
        <p className="text-xs text-fg-subtle">Betty&apos;s Zapier app is a private Zapier app published by whoever runs this server (its definition is in the server&apos;s docs/zapier.md). Deleting the API key stops every zap that uses it.</p>
      </CardBody>
    </Card>
  );
}

/** /dashboard/zapier: the Zapier connection, templates, the team's zaps and how zaps reach Betty. */
export default function ZapierPage() {
  const team = useCurrentTeam();
  const queryClient = useQueryClient();
  const apps = useQuery(connectedAppsQueryOptions(team.id));
  const zapier = apps.data?.find((a) => a.integrationId === 'zapier');
  const connected = zapier?.status === 'connected';
  const manage = can(team.myRole, 'manageIntegrations');
  const [confirming, setConfirming] = useState(false);
  const disconnect = useMutation(disconnectZapierMutationOptions(queryClient));
  const connect = useMutation({ ...connectZapierMutationOptions(), onError: (e: unknown) => toast.error(e) });
  const setup = useIntegrationSetup('zapier');
  const unavailable = setup !== undefined && !setup.configured;

  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <PageHeader title="Zapier" description="Send contacts into workflows and call outcomes to thousands of apps through Zapier." />
      <Card as="section" aria-labelledby="zapier-connection">
        <CardHeader
          id="zapier-connection"
          title="Connection"
          description={connected ? `Connected as ${zapier.name || 'your Zapier account'}.` : 'Not connected.'}
          action={
            connected ? (
              <span className="flex items-center gap-2">
                <Badge tone="success">Connected</Badge>
                {manage.allowed && (
                  <Button size="sm" variant="ghost" onClick={() => setConfirming(true)}>
                    Disconnect
                  </Button>
                )}
              </span>
            ) : (
              <span className="flex items-center gap-2">
                <Badge tone="neutral">{zapier ? 'Disconnected' : 'Not connected'}</Badge>
                {manage.allowed && (
                  <Button size="sm" busy={connect.isPending} disabled={unavailable} {...(unavailable ? { 'aria-describedby': 'zapier-not-configured' } : {})} onClick={() => connect.mutate({ organizationId: team.id })}>
                    Connect Zapier
                  </Button>
                )}
              </span>
            )
          }
        />
        <CardBody className="space-y-2 text-sm text-fg-muted">
          <p>The connection only lets this page list your zaps. Zaps run without it, with an API key.</p>
          {!connected && unavailable && (
            <p id="zapier-not-configured" className="rounded-md border border-warning-line bg-warning-subtle px-3 py-2 text-warning-fg">
              Zapier is not configured on this server, so it cannot be connected yet. Whoever runs the server starts it with{' '}
              {setup.missingSettings.map((flag, i) => (
                <span key={flag}>
                  {i > 0 && (i === setup.missingSettings.length - 1 ? ' and ' : ', ')}
                  <code className="font-mono text-xs">{flag}</code>
                </span>
              ))}{' '}
              of a Zapier app whose redirect URL is this server&apos;s <code className="font-mono text-xs">/apps/zapier/callback</code>. Zaps that use an API key work all the same.
            </p>
          )}
          {!connected && !unavailable && (
            <p>
              Connect Zapier opens Zapier, where you authorise Betty; Zapier then sends you back here and the connection is made for the team selected now.
              {!manage.allowed && ` ${manage.reason}`}
            </p>
          )}
        </CardBody>
      </Card>
      <Templates organizationId={team.id} />
      <Zaps organizationId={team.id} connected={connected} />
      <Hooks organizationId={team.id} />
      <ApiKeyGuide teamId={team.id} />
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="Disconnect Zapier?"
        description="Betty forgets the Zapier tokens and can no longer list your zaps. Zaps keep running with their API key; delete that key to stop them."
        confirmLabel="Disconnect"
        busy={disconnect.isPending}
        onConfirm={() =>
          zapier &&
          disconnect.mutate(
            { organizationId: team.id, id: zapier.id },
            {
              onSuccess: () => {
                toast.success('Zapier is disconnected.');
                setConfirming(false);
              },
              onError: (e) => toast.error(e),
            },
          )
        }
      />
    </div>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plug, ShoppingBag, Zap } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import { isApiError } from '../../api/mutator';
import type { ConnectedApp } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { Notice } from './Notice';
import { hubspotOutcome, withoutOutcome, type OAuthOutcome } from './oauthResult';
import { useIntegrationSetup } from '../system/integrations';
import { connectedAppsQueryOptions, connectHubspotMutationOptions, disconnectAppMutationOptions } from './queries';

const INTEGRATION_LABELS: Record<ConnectedApp['integrationId'], string> = { hubspot: 'HubSpot', zapier: 'Zapier' };

/** Reads the OAuth outcome off the address once, shows it, and clears it from the address. */
function useOAuthOutcome(): [OAuthOutcome | null, () => void] {
  const [params, setParams] = useSearchParams();
  const [outcome, setOutcome] = useState<OAuthOutcome | null>(() => hubspotOutcome(params));
  useEffect(() => {
    const found = hubspotOutcome(params);
    if (!found) return;
    setOutcome(found);
    if (found.ok) toast.success('HubSpot is connected. Its contacts can now feed a Contacts node.', 'HubSpot connected');
    else toast.warning(found.message, 'HubSpot not connected');
    setParams(withoutOutcome(params), { replace: true });
  }, [params, setParams]);
  return [outcome, () => setOutcome(null)];
}

function AppRow({ app, manage, onReconnect, onDisconnect, busy }: { app: ConnectedApp; manage: boolean; onReconnect: () => void; onDisconnect: () => void; busy: boolean }) {
  const team = useCurrentTeam();
  const connected = app.status === 'connected';
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 border-t border-line-soft px-5 py-4 first:border-t-0" aria-label={`${INTEGRATION_LABELS[app.integrationId]} ${app.name}`}>
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-medium text-fg">
          {INTEGRATION_LABELS[app.integrationId]}
          <Badge tone={connected ? 'success' : 'neutral'}>{connected ? 'Connected' : 'Disconnected'}</Badge>
        </p>
        <p className="mt-0.5 truncate text-sm text-fg-muted">
          {app.name || 'Unnamed account'}
          {app.accountId && <span className="text-fg-subtle"> · {app.integrationId === 'hubspot' ? 'portal' : 'account'} {app.accountId}</span>}
        </p>
        <p className="mt-0.5 text-xs text-fg-subtle">
          {connected ? 'Connected' : 'Disconnected'} · last changed {formatDateTime(app.updatedAt)}
        </p>
      </div>
      <div className="flex flex-wrap gap-2">
        {app.integrationId === 'zapier' && (
          <Link to={teamPath('/dashboard/zapier', team.id)} className={buttonClasses('ghost', 'sm')}>
            Open Zapier page
          </Link>
        )}
        {manage && app.integrationId === 'hubspot' && (
          <Button size="sm" variant="secondary" busy={busy} onClick={onReconnect}>
            Reconnect
          </Button>
        )}
        {manage && connected && (
          <Button size="sm" variant="ghost" onClick={onDisconnect}>
            Disconnect
          </Button>
        )}
      </div>
    </li>
  );
}

/** /dashboard/connected-apps: the team's HubSpot portals and Zapier account, polled every 30 s. */
export default function ConnectedAppsPage() {
  const team = useCurrentTeam();
  const queryClient = useQueryClient();
  const apps = useQuery(connectedAppsQueryOptions(team.id));
  const manage = can(team.myRole, 'manageIntegrations');
  const [outcome, dismissOutcome] = useOAuthOutcome();
  const [refused, setNotConfigured] = useState(false);
  // Known before any click when the server says so: Connect is then unavailable, with the notice.
  const hubspot = useIntegrationSetup('hubspot');
  const unconfigured = hubspot !== undefined && !hubspot.configured;
  const notConfigured = refused || unconfigured;
  const [reconnecting, setReconnecting] = useState<string | null>(null);
  const [disconnecting, setDisconnecting] = useState<ConnectedApp | null>(null);
  const connect = useMutation({
    ...connectHubspotMutationOptions(),
    onError: (e) => {
      setReconnecting(null);
      if (isApiError(e) && e.status === 501) setNotConfigured(true);
      else toast.error(e);
    },
  });
  const disconnect = useMutation(disconnectAppMutationOptions(queryClient));

  const start = (id?: string) => {
    setReconnecting(id ?? null);
    connect.mutate({ organizationId: team.id, ...(id ? { id } : {}) });
  };

  const list = apps.data ?? [];
  let body;
  if (apps.isPending) body = <SkeletonList label="Loading connected apps…" rows={2} columns={2} />;
  else if (apps.isError) body = <ErrorState error={apps.error} onRetry={() => void apps.refetch()} />;
  else if (list.length === 0)
    body = (
      <EmptyState
        icon={<Plug />}
        title="No app is connected"
        action={
          manage.allowed ? (
            <Button busy={connect.isPending && reconnecting === null} disabled={unconfigured} onClick={() => start()}>
              Connect HubSpot
            </Button>
          ) : undefined
        }
      >
        Connect a HubSpot portal to call its contacts from a workflow and to write lifecycle stages back after each call.
      </EmptyState>
    );
  else
    body = (
      <Card as="section" aria-labelledby="apps-heading">
        <CardHeader id="apps-heading" title="Connections" description="Checked every 30 seconds. Tokens stay on the server, encrypted; they are never shown." />
        <ul>
          {list.map((app) => (
            <AppRow key={app.id} app={app} manage={manage.allowed} busy={connect.isPending && reconnecting === app.id} onReconnect={() => start(app.id)} onDisconnect={() => setDisconnecting(app)} />
          ))}
        </ul>
      </Card>
    );

  return (
    <div className="mx-auto w-full max-w-4xl">
      <PageHeader
        title="Connected apps"
        description="The CRM and automation accounts this team has linked to Betty."
        actions={
          manage.allowed && list.length > 0 ? (
            <Button busy={connect.isPending && reconnecting === null} disabled={unconfigured} onClick={() => start()}>
              <Plug aria-hidden="true" />
              Connect HubSpot
            </Button>
          ) : undefined
        }
      />
      {outcome?.ok && (
        <Notice tone="success" title="HubSpot connected" onDismiss={dismissOutcome}>
          Choose HubSpot as the source of a workflow&apos;s Contacts node to call its contacts.
        </Notice>
      )}
      {outcome && !outcome.ok && (
        <Notice tone="danger" title="HubSpot not connected" onDismiss={dismissOutcome}>
          {outcome.message}
        </Notice>
      )}
      {notConfigured && (
        <Notice tone="warning" title="HubSpot is not configured on this server" {...(unconfigured ? {} : { onDismiss: () => setNotConfigured(false) })}>
          This Betty server has no HubSpot app credentials, so it cannot connect a portal. Whoever runs the server starts it with <code className="font-mono text-xs">--hubspot-client-id</code> and{' '}
          <code className="font-mono text-xs">--hubspot-client-secret</code> of a HubSpot public app whose redirect URL is this server&apos;s <code className="font-mono text-xs">/v1/apps/hubspot/callback</code>.
        </Notice>
      )}
      {!manage.allowed && (
        <div className="mb-4">
          <RoleNotice>{manage.reason}</RoleNotice>
        </div>
      )}
      {body}
      <div className="mt-6 grid gap-4 sm:grid-cols-2">
        <Card>
          <CardHeader level={3} icon={<Zap />} title="Zapier" description="Templates, your zaps, and pushing contacts or call outcomes through Zapier with an API key." />
          <CardBody>
            <Link to={teamPath('/dashboard/zapier', team.id)} className={buttonClasses('secondary', 'sm')}>
              Open Zapier
            </Link>
          </CardBody>
        </Card>
        <Card>
          <CardHeader level={3} icon={<ShoppingBag />} title="Shopify storefront" description="A call-me widget for your shop: a shopper leaves a number and one workflow calls it." />
          <CardBody>
            <Link to={teamPath('/dashboard/shopify-setting-setup', team.id)} className={buttonClasses('secondary', 'sm')}>
              Set up the widget
            </Link>
          </CardBody>
        </Card>
      </div>
      <ConfirmDialog
        open={disconnecting !== null}
        onOpenChange={(o) => !o && setDisconnecting(null)}
        title={`Disconnect ${disconnecting ? INTEGRATION_LABELS[disconnecting.integrationId] : ''}?`}
        description={
          disconnecting?.integrationId === 'zapier'
            ? 'Betty forgets the Zapier tokens and can no longer list your zaps. Zaps keep running with their API key; delete that key to stop them.'
            : 'Betty revokes and forgets the tokens. Contacts nodes that use this portal stop syncing; a run in progress finishes with the contacts it has. You can reconnect later.'
        }
        confirmLabel="Disconnect"
        busy={disconnect.isPending}
        onConfirm={() =>
          disconnecting &&
          disconnect.mutate(
            { organizationId: team.id, id: disconnecting.id },
            {
              onSuccess: () => {
                toast.success(`${INTEGRATION_LABELS[disconnecting.integrationId]} is disconnected.`);
                setDisconnecting(null);
              },
              onError: (e) => toast.error(e),
            },
          )
        }
      />
    </div>
  );
}

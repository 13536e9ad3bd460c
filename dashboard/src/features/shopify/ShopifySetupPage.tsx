import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Code, Copy, PhoneIncoming, ShieldCheck, ShoppingBag, Workflow } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';

import type { StorefrontBooking } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { Field } from '../../components/ui/input';
import { PageHeader } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { ErrorState, LoadingState } from '../../components/ui/states';
import { SkeletonList } from '../../components/ui/skeleton';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { copyText } from '../../lib/clipboard';
import { usePollInterval } from '../../lib/events';
import { formatDateTime } from '../../lib/dates';
import { usePagedList } from '../../lib/usePagedList';
import { callStatus } from '../calls/format';
import { can } from '../../lib/roles';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { attachShopifyMutationOptions, bookingsQueryOptions, outboundWorkflowsQueryOptions, widgetSnippet } from './queries';

function WorkflowPicker({ organizationId, editable, reason }: { organizationId: string; editable: boolean; reason: string }) {
  const queryClient = useQueryClient();
  const workflows = useQuery(outboundWorkflowsQueryOptions(organizationId));
  const attach = useMutation(attachShopifyMutationOptions(queryClient));
  const current = workflows.data?.find((w) => w.shopifyEnabled);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const value = chosen ?? current?.id;

  let body;
  if (workflows.isPending) body = <LoadingState label="Loading outbound workflows…" />;
  else if (workflows.isError) body = <ErrorState error={workflows.error} onRetry={() => void workflows.refetch()} />;
  else if (workflows.data.length === 0)
    body = (
      <p className="text-sm text-fg-muted">
        The widget needs an outbound workflow: it places one call with it to the shopper&apos;s number.{' '}
        <Link to={teamPath('/dashboard/workflow-canvas', organizationId)} className="text-accent-fg underline underline-offset-2">
          Create one on the Workflows page
        </Link>
        .
      </p>
    );
  else
    body = (
      <div className="space-y-3">
        <Field label="Workflow the widget starts" description={current ? `Now: ${current.name}.` : 'None yet: until one is chosen, the widget tells shoppers the store cannot take call requests.'}>
          {(ids) => <Select {...ids} value={value} disabled={!editable || attach.isPending} onValueChange={setChosen} options={workflows.data.map((w) => ({ value: w.id, label: w.name }))} placeholder="Choose an outbound workflow" />}
        </Field>
        {editable ? (
          <Button
            disabled={!value || value === current?.id}
            busy={attach.isPending}
            onClick={() =>
              value &&
              attach.mutate(
                { organizationId, workflowId: value },
                {
                  onSuccess: (w) => {
                    setChosen(undefined);
                    toast.success(`Shoppers who ask for a call are now called with “${w.name}”.`, 'Storefront workflow set');
                  },
                  onError: (e) => toast.error(e),
                },
              )
            }
          >
            Use this workflow
          </Button>
        ) : (
          <p className="text-xs text-fg-subtle">{reason}</p>
        )}
        <p className="text-xs text-fg-subtle">A booked call is a one-contact run of this workflow, with the same rules as any run: the calling window in the number&apos;s time zone, the do-not-call list, the 24-hour cap per number and your credits.</p>
      </div>
    );
  return (
    <Card as="section" aria-labelledby="shopify-workflow">
      <CardHeader id="shopify-workflow" icon={<Workflow />} title="1. Choose the workflow" description="One workflow per team; choosing another replaces it." />
      <CardBody>{body}</CardBody>
    </Card>
  );
}

/** The calls shoppers asked for (10 a page, `bookingsPage`): the team's record of their consent, and how each call went. */
function Bookings({ organizationId }: { organizationId: string }) {
  const interval = usePollInterval('calls');
  const list = usePagedList((page) => bookingsQueryOptions(organizationId, page), {
    param: 'bookingsPage',
    // Without the event stream, a page with a call not yet over is read again (the calls' pace).
    refetchInterval: (data) => (interval && data?.data.some((b) => b.callStatus === null || ['queued', 'ringing', 'in-progress'].includes(b.callStatus)) ? interval : 0),
  });
  const q = list.query;
  const columns: Column<StorefrontBooking>[] = [
    {
      key: 'who',
      header: 'Shopper',
      cell: (b) => (
        <div>
          <p className="font-mono text-sm text-fg">{b.phoneNumber}</p>
          {b.name && <p className="text-xs text-fg-subtle">{b.name}</p>}
        </div>
      ),
    },
    {
      key: 'consent',
      header: 'Consent',
      hideOnMobile: true,
      cell: (b) => (
        <div className="max-w-xs">
          <p className="text-sm text-fg-soft">{formatDateTime(b.consent.givenAt)}</p>
          <p className="truncate text-xs text-fg-subtle" title={b.consent.text}>
            {b.consent.pageUrl ?? 'No page given'} · {b.consent.clientIp}
          </p>
        </div>
      ),
    },
    {
      key: 'call',
      header: 'Call',
      cell: (b) => {
        if (!b.callLogId || !b.callStatus) return <Badge tone="neutral">Not placed yet</Badge>;
        const st = callStatus(b.callStatus);
        return (
          <Link className="inline-flex items-center gap-2 text-accent-fg underline underline-offset-2" to={teamPath(`/dashboard/calls?callLogId=${encodeURIComponent(b.callLogId)}`, organizationId)}>
            <Badge tone={st.tone}>{st.label}</Badge>
            <span className="sr-only">Open the call of {b.phoneNumber}</span>
          </Link>
        );
      },
    },
  ];
  let body;
  if (q.isPending) body = <SkeletonList label="Loading call requests…" rows={3} columns={3} />;
  else if (q.isError) body = <ErrorState error={q.error} onRetry={() => void q.refetch()} />;
  else if (q.data.data.length === 0) body = <p className="text-sm text-fg-muted">No shopper has asked for a call yet. Requests the limits refused are not listed.</p>;
  else body = <DataTable caption="Calls shoppers asked for, newest first" columns={columns} rows={q.data.data} rowKey={(b) => b.id} pageInfo={q.data.meta} onPageChange={list.setPage} />;
  return (
    <Card as="section" aria-labelledby="shopify-bookings">
      <CardHeader id="shopify-bookings" icon={<PhoneIncoming />} title="Call requests" description="Who asked for a call, the consent they gave and how the call went. The full consent text is in the API (listCallBookings) and in betty calls bookings --json." />
      <CardBody>{body}</CardBody>
    </Card>
  );
}

/** /dashboard/shopify-setting-setup: the storefront call-me widget, the workflow it starts and the snippet to paste. */
export default function ShopifySetupPage() {
  const team = useCurrentTeam();
  const edit = can(team.myRole, 'editCalling');
  const snippet = widgetSnippet(window.location.origin, team.publicApiKey);
  return (
    <div className="mx-auto w-full max-w-4xl space-y-6">
      <PageHeader title="Shopify setup" description="A call-me widget for your storefront: a shopper enters a phone number, agrees to be called, and your agent calls them within seconds (or when your calling hours open)." />
      <WorkflowPicker organizationId={team.id} editable={edit.allowed} reason={edit.reason} />
      <Card as="section" aria-labelledby="shopify-snippet">
        <CardHeader id="shopify-snippet" icon={<Code />} title="2. Copy the snippet" description="It loads a small script from this server and names your team by its publishable key." />
        <CardBody className="space-y-3">
          <pre data-testid="widget-snippet" className="rounded-md border border-line bg-subtle px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap text-fg">
            {snippet}
          </pre>
          <Button variant="secondary" size="sm" onClick={() => void copyText(snippet, 'The snippet is copied.')}>
            <Copy aria-hidden="true" />
            Copy snippet
          </Button>
          <p className="text-xs text-fg-subtle">
            The key <code className="font-mono">{team.publicApiKey}</code> only names your team: it cannot read or change anything, so it is safe on a public page. The script is served by this Betty server, so the shop must be able to reach{' '}
            <code className="font-mono">{window.location.origin}</code>.
          </p>
        </CardBody>
      </Card>
      <Card as="section" aria-labelledby="shopify-theme">
        <CardHeader id="shopify-theme" icon={<ShoppingBag />} title="3. Paste it into your theme" />
        <CardBody>
          <ol className="list-decimal space-y-2 pl-5 text-sm text-fg-soft">
            <li>In Shopify admin, open Online Store → Themes.</li>
            <li>Beside your live theme, open the menu (…) and choose Edit code.</li>
            <li>
              Open <code className="font-mono text-xs">layout/theme.liquid</code> and paste the snippet just before <code className="font-mono text-xs">&lt;/body&gt;</code>.
            </li>
            <li>Save: a “Request a call” button appears at the bottom right of every page. Try it with your own phone (on a duplicate theme first, if you prefer).</li>
          </ol>
        </CardBody>
      </Card>
      <Bookings organizationId={team.id} />
      <Card as="section" aria-labelledby="shopify-limits">
        <CardHeader id="shopify-limits" icon={<ShieldCheck />} title="Consent and limits" description="The widget is public, so Betty guards it." />
        <CardBody>
          <ul className="list-disc space-y-2 pl-5 text-sm text-fg-soft">
            <li>The shopper must tick a consent box. Betty keeps the consent text, the page, the shopper&apos;s address and the time with the call.</li>
            <li>At most 5 requests an hour from one address, 2 calls a day to one number and 100 calls a day for the team.</li>
            <li>Only valid numbers in the countries this server allows are called (by default US, CA, GB, IE, AU, NZ). Numbers on your do-not-call list are refused.</li>
            <li>Shoppers see plain messages when a request is refused; nothing about your team is shown to them.</li>
          </ul>
        </CardBody>
      </Card>
    </div>
  );
}

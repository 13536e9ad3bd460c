import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BarChart3, CreditCard, ExternalLink, Landmark, MapPin, Phone, Sparkles, Wallet } from 'lucide-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';

import { isApiError } from '../../api/mutator';
import type { BillingAddress, Organization, PhoneNumberSubscription, TeamSubscriptionStatus } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/input';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonText } from '../../components/ui/skeleton';
import { StatTile } from '../../components/ui/stat-tile';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { cn } from '../../lib/cn';
import { formatDate } from '../../lib/dates';
import { TIER_NAMES } from '../../lib/plans';
import { can } from '../../lib/roles';
import { useCurrentTeam } from '../team/TeamContext';
import { creditsProblem, formatCredits, formatMinutes, formatMoney, monthLabel, recentMonths, returnUrl } from './billing';
import {
  billingAddressQueryOptions,
  buyCredits,
  costsUsageQueryOptions,
  creditsQueryOptions,
  invalidateBilling,
  phoneSubscriptionsQueryOptions,
  portalLink,
  reportCancelled,
  saveAddressMutationOptions,
  subscriptionStatusQueryOptions,
  tierCatalogQueryOptions,
} from './queries';
import { goTo, TierCards } from './TierCards';
import { UsageChart } from './UsageChart';

const STATE_LABELS: Record<TeamSubscriptionStatus['status'], { label: string; tone: 'success' | 'neutral' | 'warning' | 'declined' | 'info' }> = {
  none: { label: 'No subscription', tone: 'neutral' },
  trialing: { label: 'Trial', tone: 'info' },
  active: { label: 'Active', tone: 'success' },
  past_due: { label: 'Past due', tone: 'warning' },
  unpaid: { label: 'Unpaid', tone: 'declined' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
};

function isNotConfigured(error: unknown): boolean {
  return isApiError(error) && error.code === 'payments_not_configured';
}

export default function BillingPage() {
  const team = useCurrentTeam();
  const view = can(team.myRole, 'viewBilling');
  return (
    <div className="mx-auto max-w-6xl">
      {view.allowed ? (
        <BillingContent key={team.id} team={team} />
      ) : (
        <>
          <PageHeader title="Billing" description="Plans, credits and monthly number subscriptions." />
          <RoleNotice>{view.reason}</RoleNotice>
        </>
      )}
    </div>
  );
}

function BillingContent({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const [searchParams, setSearchParams] = useSearchParams();
  const manage = can(team.myRole, 'manageBilling');
  const credits = useQuery(creditsQueryOptions(team.id));
  const status = useQuery(subscriptionStatusQueryOptions(team.id));
  const catalog = useQuery(tierCatalogQueryOptions());
  const paymentsOff = catalog.data?.paymentsConfigured === false;
  /** The server's words when it has no payment provider (503 payments_not_configured). */
  const [notConfigured, setNotConfigured] = useState<string | null>(null);
  const outcome = searchParams.get('paymentStatus');
  const intentId = searchParams.get('dbPaymentIntentId');
  const [waitingSince, setWaitingSince] = useState<number | null>(outcome === 'success' ? Date.now() : null);

  // Back from checkout: a cancelled one is reported; a paid one is applied when Stripe's webhook
  // arrives, so the balance and tier are read again every few seconds for a minute.
  useEffect(() => {
    if (outcome === 'cancelled' && intentId) void reportCancelled(intentId).catch(() => {});
  }, [outcome, intentId]);
  useEffect(() => {
    if (waitingSince === null) return;
    const timer = setInterval(() => {
      void invalidateBilling(queryClient, team.id);
      if (Date.now() - waitingSince > 60_000) setWaitingSince(null);
    }, 3_000);
    return () => clearInterval(timer);
  }, [waitingSince, queryClient, team.id]);

  function dismissOutcome() {
    setWaitingSince(null);
    setSearchParams((p) => {
      p.delete('paymentStatus');
      p.delete('dbPaymentIntentId');
      return p;
    });
  }

  function failed(error: unknown) {
    if (isNotConfigured(error) && isApiError(error)) setNotConfigured(error.detail || error.message);
    else toast.error(error);
  }

  const portal = useMutation({ mutationFn: () => portalLink(team.id), onSuccess: (link) => goTo(link.url), onError: failed });
  const tier = credits.data?.subscriptionTier ?? team.subscriptionTier;
  const running = status.data?.status === 'active' || status.data?.status === 'trialing' || status.data?.status === 'past_due';

  return (
    <>
      <PageHeader
        title="Billing"
        description={`Plan, credits and monthly number subscriptions of ${team.name}. Payments go through Stripe's hosted pages.`}
        actions={
          manage.allowed ? (
            <Button variant="secondary" busy={portal.isPending} busyLabel="Opening Stripe…" onClick={() => portal.mutate()}>
              <ExternalLink aria-hidden="true" />
              Manage subscription
            </Button>
          ) : undefined
        }
      />

      {outcome === 'success' && (
        <Notice tone="success" onDismiss={dismissOutcome} testId="payment-outcome">
          Stripe took your payment. {waitingSince !== null ? 'It shows here as soon as Stripe confirms it to Betty (usually within seconds).' : 'If the balance or plan has not changed yet, reload this page in a minute.'}
        </Notice>
      )}
      {outcome === 'cancelled' && (
        <Notice tone="neutral" onDismiss={dismissOutcome} testId="payment-outcome">
          You left the checkout; nothing was charged.
        </Notice>
      )}
      {(notConfigured !== null || paymentsOff) && (
        <NotConfiguredNotice detail={notConfigured ?? 'This server has no Stripe secret key (--stripe-secret-key), so plans and credits cannot be bought here; a site admin can grant credits instead.'} />
      )}
      {status.data && (status.data.status === 'past_due' || status.data.status === 'unpaid') && (
        <Notice tone="warning" testId="billing-past-due">
          {status.data.status === 'past_due'
            ? 'The last payment of your plan failed. Stripe is retrying it; update your card under Manage subscription to keep your plan.'
            : 'Stripe could not collect your plan’s payment; paid features are paused until the card is updated under Manage subscription.'}
        </Notice>
      )}

      <section aria-labelledby="billing-glance" className="mb-6">
        <h2 id="billing-glance" className="sr-only">
          At a glance
        </h2>
        <div className="grid gap-3 sm:grid-cols-3 sm:gap-4">
          <StatTile
            label="Credit balance"
            icon={<Wallet />}
            value={credits.isError ? '—' : credits.data && <span data-testid="credit-balance">{formatCredits(credits.data.balance)}</span>}
            hint={credits.isError ? 'Could not load' : 'One credit is one US dollar of calls'}
          />
          <StatTile
            label="Plan"
            icon={<Sparkles />}
            value={credits.isError ? '—' : credits.data && <span data-testid="current-tier">{TIER_NAMES[credits.data.subscriptionTier]}</span>}
            hint={<PlanHint status={status.data} endAt={credits.data?.subscriptionEndAt ?? null} />}
          />
          <StatTile label="Calls this month" icon={<BarChart3 />} value={<ThisMonthCost teamId={team.id} />} hint="Billed per second" />
        </div>
      </section>

      <div className="space-y-6">
        <TierCards
          team={team}
          current={tier}
          selected={searchParams.get('selectedTier')}
          onSelect={(t) =>
            setSearchParams(
              (p) => {
                p.set('selectedTier', t);
                return p;
              },
              { replace: true },
            )
          }
          manage={manage}
          running={running}
          paymentsOff={paymentsOff}
          onPortal={() => portal.mutate()}
          onFailed={failed}
        />
        <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
          <Usage teamId={team.id} />
          <BuyCredits team={team} manage={manage} paymentsOff={paymentsOff} onFailed={failed} />
        </div>
        <PhoneSubscriptions teamId={team.id} />
        <Address team={team} manage={manage} />
      </div>
    </>
  );
}

function Notice({ tone, children, onDismiss, testId }: { tone: 'success' | 'neutral' | 'warning'; children: ReactNode; onDismiss?: () => void; testId?: string }) {
  const tones = {
    success: 'border-success-line bg-success-subtle text-success-fg',
    neutral: 'border-line bg-subtle text-fg-soft',
    warning: 'border-warning-line bg-warning-subtle text-warning-fg',
  };
  return (
    <div role="status" data-testid={testId} className={cn('mb-6 flex flex-wrap items-start justify-between gap-3 rounded-lg border px-4 py-3 text-sm', tones[tone])}>
      <div className="min-w-0 flex-1 basis-64">{children}</div>
      {onDismiss && (
        <Button variant="ghost" size="sm" onClick={onDismiss}>
          Dismiss
        </Button>
      )}
    </div>
  );
}

function NotConfiguredNotice({ detail }: { detail: string }) {
  return (
    <div role="alert" data-testid="payments-not-configured" className="mb-6 rounded-lg border border-warning-line bg-warning-subtle px-4 py-3 text-sm text-warning-fg">
      <p className="font-semibold">Payments are not set up on this server.</p>
      <p className="mt-1">{detail}</p>
      <p className="mt-1">
        Stripe’s events also need <code className="font-mono text-xs">--stripe-webhook-secret</code>. Until then nothing here charges a card. Calls through the simulator need no credits; for
        real calls, site admins grant credits on the Admin page or with{' '}
        <code className="font-mono text-xs">betty admin credits grant</code>.
      </p>
    </div>
  );
}

function PlanHint({ status, endAt }: { status: TeamSubscriptionStatus | undefined; endAt: string | null }) {
  if (!status) return null;
  const state = STATE_LABELS[status.status];
  return (
    <span className="inline-flex flex-wrap items-center gap-1.5">
      <Badge tone={state.tone}>{state.label}</Badge>
      {status.cancelAtPeriodEnd && status.currentPeriodEnd
        ? `Ends ${formatDate(status.currentPeriodEnd)}`
        : status.trialEndsAt
          ? `Trial until ${formatDate(status.trialEndsAt)}`
          : (status.currentPeriodEnd ?? endAt)
            ? `Renews ${formatDate(status.currentPeriodEnd ?? endAt)}`
            : null}
    </span>
  );
}

function ThisMonthCost({ teamId }: { teamId: string }) {
  const now = new Date();
  const usage = useQuery(costsUsageQueryOptions(teamId, now.getUTCMonth() + 1, now.getUTCFullYear()));
  if (usage.isError) return '—';
  if (!usage.data) return undefined;
  return formatMoney(usage.data.cost, usage.data.currency);
}

const QUICK_AMOUNTS = [25, 50, 100, 250];

function BuyCredits({
  team,
  manage,
  paymentsOff,
  onFailed,
}: {
  team: Organization;
  manage: { allowed: boolean; reason: string };
  paymentsOff: boolean;
  onFailed: (error: unknown) => void;
}) {
  const [amount, setAmount] = useState('50');
  const [problem, setProblem] = useState('');
  const buy = useMutation({
    mutationFn: (credits: number) => buyCredits(team.id, credits, returnUrl(window.location.href)),
    onSuccess: (session) => {
      if (session.checkoutUrl) goTo(session.checkoutUrl);
    },
    onError: onFailed,
  });

  function submit(event: FormEvent) {
    event.preventDefault();
    const why = creditsProblem(amount);
    setProblem(why);
    if (!why) buy.mutate(Number(amount.trim()));
  }

  return (
    <Card as="section" aria-labelledby="credits-heading">
      <CardHeader id="credits-heading" icon={<CreditCard />} title="Buy credits" description="Calls are paid from credits at the per-minute rate." />
      <CardBody>
        {!manage.allowed ? (
          <RoleNotice>{manage.reason}</RoleNotice>
        ) : (
          <form onSubmit={submit} noValidate className="space-y-3">
            <div className="flex flex-wrap gap-1.5" role="group" aria-label="Quick amounts">
              {QUICK_AMOUNTS.map((n) => (
                <Button key={n} size="sm" variant={amount === String(n) ? 'primary' : 'secondary'} aria-pressed={amount === String(n)} onClick={() => setAmount(String(n))}>
                  {n}
                </Button>
              ))}
            </div>
            <Field label="Credits" description="5 to 2,500; one credit costs one US dollar." error={problem || undefined}>
              {(ids) => <Input {...ids} inputMode="numeric" value={amount} onChange={(e) => setAmount(e.target.value)} />}
            </Field>
            <Button type="submit" className="w-full" disabled={paymentsOff} busy={buy.isPending} busyLabel="Opening Stripe…">
              Buy {creditsProblem(amount) ? 'credits' : `${formatCredits(Number(amount))} for ${formatMoney(Number(amount))}`}
            </Button>
            <p className="text-xs text-fg-subtle">You pay on Stripe’s checkout page and come back here; the balance rises once Stripe confirms the payment.</p>
          </form>
        )}
      </CardBody>
    </Card>
  );
}

function Usage({ teamId }: { teamId: string }) {
  const months = recentMonths(new Date());
  const [choice, setChoice] = useState(`${months[0]!.year}-${months[0]!.month}`);
  const [year, month] = choice.split('-').map(Number) as [number, number];
  const usage = useQuery({ ...costsUsageQueryOptions(teamId, month, year), placeholderData: (prev) => prev });
  const label = monthLabel(month, year);

  return (
    <Card as="section" aria-labelledby="usage-heading">
      <CardHeader
        id="usage-heading"
        icon={<BarChart3 />}
        title="Costs and usage"
        description="Call minutes and their cost, day by day (UTC)."
      />
      <CardBody>
        <div className="mb-4 w-44">
          <Select
            aria-label="Month"
            size="sm"
            value={choice}
            onValueChange={setChoice}
            options={months.map((m) => ({ value: `${m.year}-${m.month}`, label: monthLabel(m.month, m.year) }))}
          />
        </div>
        {usage.isError ? (
          <ErrorState error={usage.error} onRetry={() => void usage.refetch()} />
        ) : !usage.data ? (
          <SkeletonText label="Loading usage…" lines={4} />
        ) : (
          <>
            <dl className="mb-4 grid grid-cols-2 gap-3 text-sm sm:grid-cols-4" data-testid="usage-summary">
              <Figure label="Cost">{formatMoney(usage.data.cost, usage.data.currency)}</Figure>
              <Figure label="Minutes">{formatMinutes(usage.data.minutes)}</Figure>
              <Figure label="Calls">{usage.data.calls.toLocaleString('en-US')}</Figure>
              <Figure label="Rate">{`${formatMoney(usage.data.ratePerMinute, usage.data.currency)}/min`}</Figure>
            </dl>
            {usage.data.days.length === 0 ? (
              <p className="text-sm text-fg-muted">No days to show for {label} yet.</p>
            ) : (
              <UsageChart days={usage.data.days} currency={usage.data.currency} label={`Cost per day in ${label}`} />
            )}
            {usage.data.calls === 0 && <p className="mt-2 text-xs text-fg-subtle">No calls in {label}.</p>}
          </>
        )}
      </CardBody>
    </Card>
  );
}

function Figure({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs text-fg-subtle">{label}</dt>
      <dd className="truncate font-semibold text-fg tabular-nums">{children}</dd>
    </div>
  );
}

function PhoneSubscriptions({ teamId }: { teamId: string }) {
  const [page, setPage] = useState(1);
  const subs = useQuery(phoneSubscriptionsQueryOptions(teamId, page));
  const columns: Column<PhoneNumberSubscription>[] = [
    { key: 'number', header: 'Number', cell: (s) => <span className="font-medium text-fg tabular-nums">{s.phoneNumber}</span> },
    { key: 'status', header: 'Status', cell: (s) => <Badge tone={STATE_LABELS[s.status].tone}>{s.cancelAtPeriodEnd ? 'Ends at period end' : STATE_LABELS[s.status].label}</Badge> },
    { key: 'price', header: 'Monthly', cell: (s) => formatMoney(s.monthlyPrice, s.currency) },
    { key: 'renews', header: 'Renews', hideOnMobile: true, cell: (s) => <span className="text-fg-muted">{formatDate(s.currentPeriodEnd)}</span> },
  ];
  return (
    <Card as="section" aria-labelledby="numbers-heading">
      <CardHeader id="numbers-heading" icon={<Phone />} title="Phone-number subscriptions" description="Each bought number is paid monthly. This list is read again at most every 10 minutes." />
      <CardBody>
        {subs.isError ? (
          <ErrorState error={subs.error} onRetry={() => void subs.refetch()} />
        ) : !subs.data ? (
          <SkeletonText label="Loading subscriptions…" lines={3} />
        ) : subs.data.data.length === 0 ? (
          <EmptyState icon={<Phone />} title="No number subscriptions">
            Numbers bought through Stripe show here with their monthly price and renewal date.
          </EmptyState>
        ) : (
          <DataTable
            caption="Phone-number subscriptions"
            columns={columns}
            rows={subs.data.data}
            rowKey={(s) => s.id}
            pageInfo={{ page: subs.data.meta.page, totalPages: subs.data.meta.totalPages, totalSize: subs.data.meta.totalSize, start: subs.data.meta.start, end: subs.data.meta.end }}
            onPageChange={setPage}
          />
        )}
      </CardBody>
    </Card>
  );
}

const EMPTY_ADDRESS: BillingAddress = { line1: '', line2: '', city: '', state: '', postalCode: '', country: '' };

function Address({ team, manage }: { team: Organization; manage: { allowed: boolean; reason: string } }) {
  const queryClient = useQueryClient();
  const address = useQuery(billingAddressQueryOptions(team.id));
  const [saveOptions] = useState(() => saveAddressMutationOptions(queryClient));
  const { abort, ...saveMutation } = saveOptions;
  const save = useMutation(saveMutation);
  useEffect(() => abort, [abort]);
  const [form, setForm] = useState<BillingAddress | null>(null);
  const value = form ?? { ...EMPTY_ADDRESS, ...address.data?.billingAddress };
  const serverError = isApiError(save.error) ? save.error : undefined;
  const set = (key: keyof BillingAddress) => (e: { target: { value: string } }) => setForm({ ...value, [key]: key === 'country' ? e.target.value.toUpperCase() : e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    const billingAddress: BillingAddress = {
      line1: value.line1.trim(),
      line2: value.line2?.trim() || null,
      city: value.city.trim(),
      state: value.state?.trim() || null,
      postalCode: value.postalCode.trim(),
      country: value.country.trim().toUpperCase(),
    };
    save.mutate(
      { organizationId: team.id, billingAddress },
      {
        onSuccess: () => {
          setForm(null);
          toast.success('The billing address was saved; Stripe puts it on future invoices.');
        },
      },
    );
  }

  const field = (key: keyof BillingAddress, label: string, extra: { description?: string; autoComplete?: string; className?: string } = {}) => (
    <Field label={label} error={serverError?.fieldError(`body.billingAddress.${key}`)} className={extra.className ?? ''} {...(extra.description ? { description: extra.description } : {})}>
      {(ids) => <Input {...ids} value={value[key] ?? ''} onChange={set(key)} disabled={!manage.allowed} autoComplete={extra.autoComplete} />}
    </Field>
  );

  return (
    <Card as="section" aria-labelledby="address-heading">
      <CardHeader
        id="address-heading"
        icon={<MapPin />}
        title="Billing address"
        description={address.data?.updatedAt ? `On your invoices. Last saved ${formatDate(address.data.updatedAt)}.` : 'On your invoices.'}
      />
      <CardBody>
        {address.isError ? (
          <ErrorState error={address.error} onRetry={() => void address.refetch()} />
        ) : !address.data ? (
          <SkeletonText label="Loading the billing address…" lines={3} />
        ) : (
          <form onSubmit={submit} className="grid gap-3 sm:grid-cols-2" aria-label="Billing address">
            {!manage.allowed && (
              <div className="sm:col-span-2">
                <RoleNotice>{manage.reason}</RoleNotice>
              </div>
            )}
            {field('line1', 'Street and number', { autoComplete: 'address-line1', className: 'sm:col-span-2' })}
            {field('line2', 'Apartment, suite or building (optional)', { autoComplete: 'address-line2', className: 'sm:col-span-2' })}
            {field('city', 'City', { autoComplete: 'address-level2' })}
            {field('state', 'State or region', { autoComplete: 'address-level1', description: 'A 2-letter code in the US and Canada.' })}
            {field('postalCode', 'Postal code', { autoComplete: 'postal-code' })}
            {field('country', 'Country', { autoComplete: 'country', description: 'Two letters, such as US, GB or DE.' })}
            {serverError && !serverError.errors.length && <p className="text-sm font-medium text-danger-fg sm:col-span-2">{serverError.message}</p>}
            {manage.allowed && (
              <div className="sm:col-span-2">
                <Button type="submit" busy={save.isPending} busyLabel="Saving…" disabled={form === null}>
                  <Landmark aria-hidden="true" />
                  Save address
                </Button>
              </div>
            )}
          </form>
        )}
      </CardBody>
    </Card>
  );
}

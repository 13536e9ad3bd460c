import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Phone, Search, ShieldCheck, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';

import type { AvailablePhoneNumber, CountryCode, Organization, PhoneNumber, PhoneNumberType, PhoneNumberVerification, PhoneVerificationMethod } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { Field, Input } from '../../components/ui/input';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { agentsQueryOptions } from '../agents/queries';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import {
  DEFAULT_SEARCH,
  availableNumbersQueryOptions,
  buyNumberMutationOptions,
  pairNumberMutationOptions,
  phoneNumbersQueryOptions,
  releaseNumberMutationOptions,
  requestVerificationMutationOptions,
  supportedCountriesQueryOptions,
  verificationPollInterval,
  verificationsQueryOptions,
  verifyNumberMutationOptions,
} from './queries';
import { searchErrors, searchParamsFromForm, type SearchForm } from './search';

const TYPE_LABELS: Record<PhoneNumberType, string> = { local: 'Local', toll_free: 'Toll-free' };
const E164 = /^\+[1-9][0-9]{6,14}$/;

export default function PhoneNumbersPage() {
  const team = useCurrentTeam();
  const countries = useQuery(supportedCountriesQueryOptions());
  // The offline simulator sells every number free; a carrier account has prices.
  const simulated = countries.data ? countries.data.every((c) => c.numberTypes.every((t) => t.monthlyPrice === 0)) : false;
  return (
    <div className="mx-auto max-w-5xl space-y-8" key={team.id}>
      <PageHeader title="Phone numbers" description="Numbers your campaigns answer and call from: buy one, or verify one you already own to use as caller ID." />
      {simulated && (
        <p className="rounded-md border border-line bg-subtle px-3 py-2 text-sm text-fg-muted" role="note">
          This server has no carrier account: it sells fictional numbers free from an offline simulator. They cannot place or receive real calls, and verification codes go to the server’s log instead of a phone.
        </p>
      )}
      <MyNumbers team={team} />
      <BuyNumbers team={team} />
      <VerifyNumber team={team} simulated={simulated} />
    </div>
  );
}

function MyNumbers({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const list = usePagedList((page) => phoneNumbersQueryOptions(team.id, page));
  const numbers = list.query;
  const agents = useQuery(agentsQueryOptions(team.id, 1, 100));
  const release = useMutation(releaseNumberMutationOptions(queryClient));
  const pair = useMutation(pairNumberMutationOptions(queryClient));
  const [toRelease, setToRelease] = useState<PhoneNumber | null>(null);
  // The inbound workflow the last pairing made or gave the agent: calls follow it.
  const [paired, setPaired] = useState<{ number: string; agent: string; workflowId: string } | null>(null);
  const manage = can(team.myRole, 'manageNumbers');
  const edit = can(team.myRole, 'editCalling');
  const agentOptions = (agents.data?.data ?? []).map((a) => ({ value: a.id, label: a.name }));

  const columns: Column<PhoneNumber>[] = [
    {
      key: 'number',
      header: 'Number',
      cell: (n) => (
        <div>
          <p className="font-mono text-sm text-fg">{n.phoneNumber}</p>
          <p className="text-xs text-fg-subtle">
            {n.countryCode} · {n.isNonTelnyxNumber ? 'Your own, verified: caller ID only' : n.type ? TYPE_LABELS[n.type] : 'Bought'}
            {n.monthlyPrice !== null && ` · $${n.monthlyPrice.toFixed(2)}/month`}
          </p>
        </div>
      ),
    },
    { key: 'status', header: 'Status', hideOnMobile: true, cell: (n) => <Badge tone={n.status === 'active' ? 'success' : n.status === 'suspended' ? 'declined' : 'info'}>{n.status === 'active' ? 'Active' : n.status === 'suspended' ? 'Suspended' : 'Pending'}</Badge> },
    {
      key: 'agent',
      header: 'Answered by',
      cell: (n) =>
        n.isNonTelnyxNumber ? (
          <span className="text-xs text-fg-subtle">Cannot receive calls</span>
        ) : edit.allowed && n.status === 'active' && agentOptions.length > 0 ? (
          <Select size="sm" aria-label={`Agent that answers ${n.phoneNumber}`} value={n.agentId ?? undefined} placeholder="No agent" options={agentOptions} onValueChange={(agentId) =>
              pair.mutate(
                { organizationId: team.id, phoneNumberId: n.id, agentId },
                {
                  onSuccess: (config) => {
                    const agent = agentOptions.find((a) => a.value === agentId)?.label ?? 'that agent';
                    toast.success(`${n.phoneNumber} is now answered by ${agent}.`);
                    setPaired(config.workflowId ? { number: n.phoneNumber, agent, workflowId: config.workflowId } : null);
                  },
                  onError: (e) => toast.error(e),
                },
              )
            } className="min-w-32" />
        ) : (
          <span className="text-sm text-fg-muted">{agentOptions.find((a) => a.value === n.agentId)?.label ?? (agents.isSuccess && agentOptions.length === 0 ? 'No agents yet' : '—')}</span>
        ),
    },
    {
      key: 'campaign',
      header: 'Campaign',
      hideOnMobile: true,
      cell: (n) =>
        n.campaignId ? (
          <Link className="text-accent-fg underline underline-offset-2" to={teamPath(`/dashboard/campaigns/${n.campaignId}/phone-numbers`, team.id)}>
            Open campaign
          </Link>
        ) : (
          <span className="text-fg-subtle">None</span>
        ),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (n) =>
        manage.allowed ? (
          <Button variant="ghost" size="sm" className="text-danger-fg" onClick={() => setToRelease(n)} aria-label={`Release ${n.phoneNumber}`}>
            <Trash2 aria-hidden="true" />
            <span className="hidden sm:inline">Release</span>
          </Button>
        ) : null,
    },
  ];

  let body;
  if (numbers.isPending) body = <SkeletonList label="Loading your numbers…" rows={3} columns={3} />;
  else if (numbers.isError) body = <ErrorState error={numbers.error} onRetry={() => void numbers.refetch()} />;
  else if (numbers.data.data.length === 0)
    body = (
      <EmptyState
        icon={<Phone />}
        title="No numbers yet"
        action={
          <Button variant="secondary" onClick={() => document.getElementById('buy-heading')?.scrollIntoView({ behavior: 'smooth' })}>
            Find a number to buy
          </Button>
        }
      >
        Buy a number for your agents to answer, or verify one you own below to call from it.
      </EmptyState>
    );
  else body = <DataTable caption={`Phone numbers of ${team.name}`} columns={columns} rows={numbers.data.data} rowKey={(n) => n.id} pageInfo={numbers.data.meta} onPageChange={list.setPage} />;

  return (
    <section aria-labelledby="numbers-heading">
      <h2 id="numbers-heading" className="mb-1 text-lg font-semibold text-fg">
        Your numbers
      </h2>
      <p className="mb-3 text-sm text-fg-muted">
        Your team has one pairing of a number with the agent that answers it; choosing an agent for another number moves it there. Calls follow an inbound workflow: the number’s own, or one Betty makes from the Answer calls template (greet, answer from what the agent knows, take a message).
      </p>
      {paired && (
        <p role="status" className="mb-3 rounded-md border border-line bg-accent-subtle px-3 py-2 text-sm text-fg">
          Calls to <span className="font-mono">{paired.number}</span> reach {paired.agent} through an inbound workflow you can change.{' '}
          <Link className="text-accent-fg underline underline-offset-2" to={teamPath(`/dashboard/workflow-canvas?workflowId=${encodeURIComponent(paired.workflowId)}`, team.id)}>
            Open the workflow
          </Link>
        </p>
      )}
      {body}
      <ConfirmDialog
        open={toRelease !== null}
        onOpenChange={(open) => !open && setToRelease(null)}
        title={`Release ${toRelease?.phoneNumber ?? ''}?`}
        description={toRelease?.isNonTelnyxNumber ? 'It stops being a verified caller ID of your team; verify it again to use it.' : 'It goes back on sale and its monthly subscription ends (the current month is not refunded). A number a campaign still uses is not released.'}
        confirmLabel="Release number"
        busy={release.isPending}
        onConfirm={() =>
          toRelease &&
          release.mutate(
            { id: toRelease.id, organizationId: team.id },
            {
              onSuccess: () => {
                toast.success(`${toRelease.phoneNumber} was released.`);
                setToRelease(null);
                list.afterDelete();
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
    </section>
  );
}

function BuyNumbers({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const countries = useQuery(supportedCountriesQueryOptions());
  const [form, setForm] = useState<SearchForm>({ ...DEFAULT_SEARCH, limit: String(DEFAULT_SEARCH.limit) });
  const [asked, setAsked] = useState<ReturnType<typeof searchParamsFromForm> | null>(null);
  const [errors, setErrors] = useState<ReturnType<typeof searchErrors>>({});
  const results = useQuery({ ...availableNumbersQueryOptions(asked ?? {}), enabled: asked !== null });
  const buy = useMutation(buyNumberMutationOptions(queryClient));
  const manage = can(team.myRole, 'manageNumbers');
  const country = countries.data?.find((c) => c.countryCode === form.countryCode);
  const countryOptions = (countries.data ?? [{ countryCode: 'US' as CountryCode, name: 'United States' }]).map((c) => ({ value: c.countryCode, label: c.name }));
  const typeOptions = (country?.numberTypes ?? [{ type: 'local' as PhoneNumberType }, { type: 'toll_free' as PhoneNumberType }]).map((t) => ({ value: t.type, label: TYPE_LABELS[t.type] }));

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const found = searchErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(event.currentTarget);
    setAsked(searchParamsFromForm(form));
  }

  function purchase(n: AvailablePhoneNumber) {
    buy.mutate(
      { organizationId: team.id, phoneNumber: n.phoneNumber, originUrl: window.location.href },
      {
        onSuccess: (session) => {
          if (session.checkoutUrl) {
            window.location.assign(session.checkoutUrl);
            return;
          }
          toast.success(`${session.phoneNumber?.phoneNumber ?? n.phoneNumber} is now one of your numbers.`);
        },
        onError: (error) => toast.error(error),
      },
    );
  }

  const columns: Column<AvailablePhoneNumber>[] = [
    {
      key: 'number',
      header: 'Number',
      cell: (n) => (
        <div>
          <p className="font-mono text-sm text-fg">{n.phoneNumber}</p>
          <p className="text-xs text-fg-subtle">{[n.locality, n.region].filter(Boolean).join(', ') || TYPE_LABELS[n.type]}</p>
        </div>
      ),
    },
    { key: 'price', header: 'Monthly', cell: (n) => <span className="text-fg-soft">{n.monthlyPrice === 0 ? 'Free' : `$${n.monthlyPrice.toFixed(2)}`}{n.upfrontPrice > 0 && ` + $${n.upfrontPrice.toFixed(2)} once`}</span> },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (n) =>
        manage.allowed ? (
          <Button size="sm" onClick={() => purchase(n)} busy={buy.isPending && buy.variables?.phoneNumber === n.phoneNumber} busyLabel="Buying…" disabled={buy.isPending} aria-label={`Buy ${n.phoneNumber}`}>
            Buy
          </Button>
        ) : null,
    },
  ];

  let body = null;
  if (asked && results.isPending) body = <SkeletonList label="Searching numbers…" rows={3} columns={2} />;
  else if (asked && results.isError) body = <ErrorState error={results.error} onRetry={() => void results.refetch()} />;
  else if (asked && results.data?.length === 0)
    body = (
      <EmptyState icon={<Search />} title="No numbers match">
        Try another area code, or none.
      </EmptyState>
    );
  else if (results.data) body = <DataTable caption="Numbers on sale" columns={columns} rows={results.data} rowKey={(n) => n.phoneNumber} pageSize={10} />;

  return (
    <section aria-labelledby="buy-heading">
      <Card>
        <CardHeader id="buy-heading" title="Buy a number" description="Numbers on sale are not reserved: one may be sold before you buy it." icon={<Search />} />
        <CardBody className="space-y-4">
          {!manage.allowed && <RoleNotice>{manage.reason}</RoleNotice>}
          <form onSubmit={submit} noValidate role="search" aria-label="Search numbers on sale" className="grid items-end gap-3 sm:grid-cols-5">
            <Field label="Country">{(ids) => <Select {...ids} value={form.countryCode} onValueChange={(countryCode) => setForm((f) => ({ ...f, countryCode, type: 'local' }))} options={countryOptions} />}</Field>
            <Field label="Type">{(ids) => <Select {...ids} value={form.type} onValueChange={(type) => setForm((f) => ({ ...f, type }))} options={typeOptions} />}</Field>
            <Field label="Area code" error={errors.areaCode}>
              {(ids) => <Input {...ids} inputMode="numeric" placeholder="Any" value={form.areaCode} onChange={(e) => setForm((f) => ({ ...f, areaCode: e.target.value }))} maxLength={5} />}
            </Field>
            <Field label="How many" error={errors.limit}>
              {(ids) => <Input {...ids} type="number" inputMode="numeric" min={1} max={50} value={form.limit} onChange={(e) => setForm((f) => ({ ...f, limit: e.target.value }))} />}
            </Field>
            <Button type="submit" busy={asked !== null && results.isFetching} busyLabel="Searching…">
              <Search aria-hidden="true" />
              Search
            </Button>
          </form>
          {body}
        </CardBody>
      </Card>
    </section>
  );
}

function VerifyNumber({ team, simulated }: { team: Organization; simulated: boolean }) {
  const queryClient = useQueryClient();
  const verifications = useQuery({
    ...verificationsQueryOptions(team.id),
    refetchInterval: (query) => verificationPollInterval(query.state.data?.map((v) => v.status)),
  });
  const request = useMutation(requestVerificationMutationOptions(queryClient));
  const [phoneNumber, setPhoneNumber] = useState('');
  const [method, setMethod] = useState<PhoneVerificationMethod>('call');
  const [error, setError] = useState<string | undefined>();
  const edit = can(team.myRole, 'editCalling');
  const server = isApiError(request.error) ? request.error : undefined;
  const recent = (verifications.data ?? []).slice(0, 5);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const number = phoneNumber.replace(/[\s().-]/g, '');
    if (!E164.test(number)) {
      setError('The number in international form, like +14155550123.');
      return focusFirstInvalid(event.currentTarget);
    }
    setError(undefined);
    request.mutate(
      { organizationId: team.id, phoneNumber: number, method },
      {
        onSuccess: (v) => toast.success(simulated ? `The code for ${v.phoneNumber} is in the server’s log.` : `A code is on its way to ${v.phoneNumber} by ${v.method === 'sms' ? 'text message' : 'phone call'}.`),
        onError: (e) => {
          if (!(isApiError(e) && e.errors.length > 0)) toast.error(e);
        },
      },
    );
  }

  return (
    <section aria-labelledby="verify-heading">
      <Card>
        <CardHeader id="verify-heading" title="Verify a number you own" description="Use a number you already have as caller ID for outbound calls. It cannot receive calls through Betty." icon={<ShieldCheck />} />
        <CardBody className="space-y-4">
          {!edit.allowed ? (
            <RoleNotice>{edit.reason}</RoleNotice>
          ) : (
            <form onSubmit={submit} noValidate className="grid items-end gap-3 sm:grid-cols-[1fr_12rem_auto]">
              <Field label="Your number" error={error ?? server?.fieldError('body.phoneNumber')}>
                {(ids) => <Input {...ids} type="tel" autoComplete="tel" placeholder="+14155550123" value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} />}
              </Field>
              <Field label="Send the code by">
                {(ids) => (
                  <Select
                    {...ids}
                    value={method}
                    onValueChange={setMethod}
                    options={[
                      { value: 'call', label: 'Phone call' },
                      { value: 'sms', label: 'Text message' },
                    ]}
                  />
                )}
              </Field>
              <Button type="submit" busy={request.isPending} busyLabel="Requesting…">
                Send code
              </Button>
            </form>
          )}
          {verifications.isPending ? (
            <SkeletonList label="Loading verifications…" rows={2} columns={2} />
          ) : verifications.isError ? (
            <ErrorState error={verifications.error} onRetry={() => void verifications.refetch()} />
          ) : recent.length > 0 ? (
            <ul className="divide-y divide-line-soft" aria-label="Recent verifications">
              {recent.map((v) => (
                <VerificationRow key={v.id} team={team} verification={v} simulated={simulated} canEdit={edit.allowed} />
              ))}
            </ul>
          ) : null}
        </CardBody>
      </Card>
    </section>
  );
}

const VERIFICATION_LABELS = { pending: 'Waiting for the code', verified: 'Verified', failed: 'Failed', expired: 'Expired' } as const;

function VerificationRow({ team, verification: v, simulated, canEdit }: { team: Organization; verification: PhoneNumberVerification; simulated: boolean; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const verify = useMutation(verifyNumberMutationOptions(queryClient));
  const [code, setCode] = useState('');
  const server = isApiError(verify.error) ? verify.error : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    verify.mutate(
      { organizationId: team.id, phoneNumber: v.phoneNumber, code: code.trim() },
      {
        onSuccess: () => toast.success(`${v.phoneNumber} is verified and is now one of your numbers.`),
        onError: (e) => {
          if (!(isApiError(e) && e.errors.length > 0)) toast.error(e);
        },
      },
    );
  }

  return (
    <li className="py-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="font-mono text-sm text-fg">{v.phoneNumber}</span>
        <span className="flex items-center gap-2 text-xs text-fg-subtle">
          {v.status === 'pending' && v.expiresAt ? `Expires ${formatDateTime(v.expiresAt)} · ${v.attemptsLeft} tries left` : formatDateTime(v.updatedAt)}
          <Badge tone={v.status === 'verified' ? 'success' : v.status === 'pending' ? 'info' : 'declined'}>{VERIFICATION_LABELS[v.status]}</Badge>
        </span>
      </div>
      {v.status === 'pending' && canEdit && (
        <form onSubmit={submit} noValidate className="mt-2 flex flex-wrap items-end gap-2">
          <Field label={`Code for ${v.phoneNumber}`} description={simulated ? 'In the server’s log (no carrier account).' : `Sent by ${v.method === 'sms' ? 'text message' : 'phone call'}.`} error={server?.fieldError('body.code')} className="min-w-0 flex-1">
            {(ids) => <Input {...ids} inputMode="numeric" autoComplete="one-time-code" value={code} onChange={(e) => setCode(e.target.value.replace(/\D/g, ''))} maxLength={10} />}
          </Field>
          <Button type="submit" busy={verify.isPending} busyLabel="Checking…" disabled={code.length < 4}>
            Verify
          </Button>
        </form>
      )}
    </li>
  );
}

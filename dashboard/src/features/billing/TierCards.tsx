import { useMutation, useQuery } from '@tanstack/react-query';
import { Check, Sparkles } from 'lucide-react';
import { useState, type ReactNode } from 'react';

import { isApiError } from '../../api/mutator';
import type { Organization, PaidSubscriptionTier, SubscriptionTier, TierOffer } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { Field, Input } from '../../components/ui/input';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { cn } from '../../lib/cn';
import { formatPrice, highlightedTier, returnUrl } from './billing';
import { subscribeTier, tierCatalogQueryOptions } from './queries';

/** Sends the browser to the payment provider's hosted page; Betty never shows a card field. */
export function goTo(url: string) {
  window.location.assign(url);
}

/** The plan cards: every figure comes from the server's catalogue (GET /v1/payment/tiers). */
export function TierCards(props: {
  team: Organization;
  current: SubscriptionTier;
  selected: string | null;
  onSelect: (tier: SubscriptionTier) => void;
  manage: { allowed: boolean; reason: string };
  running: boolean;
  paymentsOff: boolean;
  onPortal: () => void;
  onFailed: (error: unknown) => void;
}) {
  const { team, current, selected, onSelect, manage, running, paymentsOff, onPortal, onFailed } = props;
  const catalog = useQuery(tierCatalogQueryOptions());
  const highlight = highlightedTier(current, selected);
  const [sales, setSales] = useState<string | null>(null);
  const [trialOpen, setTrialOpen] = useState(false);
  const [trialCode, setTrialCode] = useState('');
  const [trialProblem, setTrialProblem] = useState('');
  const subscribe = useMutation({
    mutationFn: (t: PaidSubscriptionTier) => subscribeTier(team.id, t, returnUrl(window.location.href), trialCode.trim() || undefined),
    onSuccess: (session) => {
      if (session.checkoutUrl) goTo(session.checkoutUrl);
    },
    onError: (error, t) => {
      if (t === 'tier4' && isApiError(error) && error.status === 422) setSales(error.detail || error.message);
      else if (isApiError(error) && error.errors?.some((e) => e.field === 'body.trialPeriodCode')) {
        setTrialProblem(error.errors.find((e) => e.field === 'body.trialPeriodCode')?.message ?? error.message);
      } else onFailed(error);
    },
  });
  const canBuy = manage.allowed && !running && !paymentsOff;

  return (
    <Card as="section" aria-labelledby="tiers-heading">
      <CardHeader id="tiers-heading" icon={<Sparkles />} title="Plans" description="Each plan lifts the team’s limits; calls are paid from credits on every plan." />
      <CardBody>
        {!manage.allowed && <p className="mb-3 text-sm text-fg-muted">{manage.reason}</p>}
        {manage.allowed && running && <p className="mb-3 text-sm text-fg-muted">Your team has a running subscription: change or cancel it under Manage subscription.</p>}
        {catalog.isError ? (
          <ErrorState error={catalog.error} onRetry={() => void catalog.refetch()} />
        ) : !catalog.data ? (
          <SkeletonText label="Loading plans…" lines={5} />
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5" data-testid="tiers">
            {catalog.data.tiers.map((offer) => {
              const t = offer.tier;
              const isCurrent = t === current;
              const isHighlighted = t === highlight && !isCurrent;
              return (
                <li
                  key={t}
                  data-testid={`tier-${t}`}
                  data-highlighted={isHighlighted || undefined}
                  className={cn('flex flex-col rounded-lg border p-4', isHighlighted ? 'border-accent bg-accent-subtle/50 ring-1 ring-accent' : 'border-line bg-surface')}
                >
                  <div className="flex flex-wrap items-center justify-between gap-1">
                    <h3 className="font-semibold text-fg">{offer.name}</h3>
                    {isCurrent && <Badge tone="success">Current plan</Badge>}
                    {isHighlighted && <Badge tone="info">{selected === t ? 'Selected' : 'Next upgrade'}</Badge>}
                  </div>
                  <p className="mt-1 text-sm text-fg-muted">
                    <Price offer={offer} />
                  </p>
                  <ul className="mt-3 flex-1 space-y-1 text-xs text-fg-soft">
                    <Limit>{offer.limits.concurrentCalls} calls at once</Limit>
                    <Limit>{offer.limits.phoneNumbers} bought numbers</Limit>
                    <Limit>{offer.limits.teamMembers} seats</Limit>
                    <Limit>
                      {offer.limits.customVoiceProfiles} custom {offer.limits.customVoiceProfiles === 1 ? 'voice' : 'voices'}
                    </Limit>
                  </ul>
                  {t === 'tier4' ? (
                    <div className="mt-3 space-y-2">
                      {!manage.allowed ? (
                        <p className="text-xs text-fg-muted">Arranged with our sales team by an admin or the owner.</p>
                      ) : sales !== null ? (
                        <p role="status" data-testid="sales-contact" className="rounded-md bg-subtle p-2 text-xs text-fg-soft">
                          {sales}
                        </p>
                      ) : (
                        <Button
                          variant={isHighlighted ? 'primary' : 'secondary'}
                          size="sm"
                          className="w-full"
                          disabled={isCurrent}
                          busy={subscribe.isPending && subscribe.variables === 'tier4'}
                          onClick={() => {
                            onSelect(t);
                            subscribe.mutate('tier4');
                          }}
                        >
                          Contact sales
                        </Button>
                      )}
                    </div>
                  ) : offer.purchasable && manage.allowed && !isCurrent ? (
                    <Button
                      variant={isHighlighted ? 'primary' : 'secondary'}
                      size="sm"
                      className="mt-3 w-full"
                      disabled={paymentsOff}
                      busy={subscribe.isPending && subscribe.variables === t}
                      busyLabel="Opening…"
                      aria-label={running ? `Change to ${offer.name} in Stripe` : `Choose ${offer.name}`}
                      onClick={() => {
                        onSelect(t);
                        if (running) onPortal();
                        else subscribe.mutate(t as PaidSubscriptionTier);
                      }}
                    >
                      {running ? 'Change' : 'Choose'}
                    </Button>
                  ) : null}
                </li>
              );
            })}
          </ul>
        )}
        {canBuy && (
          <div className="mt-4 text-sm">
            {!trialOpen ? (
              <Button variant="ghost" size="sm" onClick={() => setTrialOpen(true)}>
                Have a trial code?
              </Button>
            ) : (
              <div className="max-w-xs">
                <Field label="Trial code" description="Applied to the plan you choose next; a team gets one trial." error={trialProblem || undefined}>
                  {(ids) => (
                    <Input
                      {...ids}
                      value={trialCode}
                      maxLength={64}
                      autoComplete="off"
                      onChange={(e) => {
                        setTrialCode(e.target.value);
                        setTrialProblem('');
                      }}
                    />
                  )}
                </Field>
              </div>
            )}
          </div>
        )}
      </CardBody>
    </Card>
  );
}

function Price({ offer }: { offer: TierOffer }) {
  if (offer.monthlyPriceUsd === null) return <span className="text-lg font-semibold text-fg">Talk to sales</span>;
  if (offer.monthlyPriceUsd === 0) return <span className="text-lg font-semibold text-fg">{formatPrice(0)}</span>;
  return (
    <>
      <span className="text-lg font-semibold text-fg">{formatPrice(offer.monthlyPriceUsd)}</span> a month
    </>
  );
}

function Limit({ children }: { children: ReactNode }) {
  return (
    <li className="flex items-start gap-1.5">
      <Check aria-hidden="true" className="mt-0.5 size-3 shrink-0 text-success-fg" />
      <span>{children}</span>
    </li>
  );
}

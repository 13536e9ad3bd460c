import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import type { OnboardingStep } from '../../api/gen/model';
import { ErrorState, LoadingState } from '../../components/ui/states';
import { cn } from '../../lib/cn';
import { onboardingQueryOptions } from '../team/queries';

const GUIDE_FOR_STEP: Record<OnboardingStep, string> = {
  'team-created': '/docs/teams',
  'agent-created': '/docs/test-your-agent-profile/create-your-agent',
  'phone-number-bought': '/docs/test-your-agent-profile/buy-phone-number',
  'phone-number-paired': '/docs/test-your-agent-profile/pair-phone-number-and-agent',
  'test-call-made': '/docs/test-your-agent-profile/test-call-the-phone-number',
};

export function OnboardingChecklist({ teamId, compact = false }: { teamId: string; compact?: boolean }) {
  const onboarding = useQuery(onboardingQueryOptions(teamId));
  if (onboarding.isPending) return <LoadingState label="Loading the checklist…" />;
  if (onboarding.isError) return <ErrorState error={onboarding.error} onRetry={() => void onboarding.refetch()} />;
  const { items, completed } = onboarding.data;
  const done = items.filter((i) => i.done).length;
  return (
    <div>
      <div className="flex items-center justify-between gap-3 text-sm">
        <p className="font-medium text-zinc-900">{completed ? 'All steps done' : `${done} of ${items.length} steps done`}</p>
        <span className="text-zinc-500">{Math.round((done / items.length) * 100)}%</span>
      </div>
      <div className="mt-2 h-2 overflow-hidden rounded-full bg-zinc-100" role="progressbar" aria-label="Onboarding progress" aria-valuemin={0} aria-valuemax={items.length} aria-valuenow={done}>
        <div className="h-full rounded-full bg-brand-600" style={{ width: `${(done / items.length) * 100}%` }} />
      </div>
      <ol className={cn('mt-4 space-y-2', compact && 'space-y-1')}>
        {items.map((item, index) => (
          <li key={item.key} className="flex items-center gap-3 rounded-lg border border-zinc-200 bg-white px-3 py-2.5">
            <span aria-hidden="true" className={cn('flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold', item.done ? 'bg-emerald-100 text-emerald-800' : 'bg-zinc-100 text-zinc-600')}>
              {item.done ? '✓' : index + 1}
            </span>
            <span className={cn('min-w-0 flex-1 text-sm', item.done ? 'text-zinc-500 line-through' : 'text-zinc-900')}>
              {item.label}
              <span className="sr-only">{item.done ? ' (done)' : ' (to do)'}</span>
            </span>
            {!compact && !item.done && (
              <Link to={GUIDE_FOR_STEP[item.key]} className="text-sm font-medium whitespace-nowrap text-brand-700 hover:underline">
                How to
              </Link>
            )}
          </li>
        ))}
      </ol>
    </div>
  );
}

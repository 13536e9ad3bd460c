import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import type { OnboardingStep } from '../../api/gen/model';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { cn } from '../../lib/cn';
import { availableWhen, type AreaId } from '../../lib/features';
import { onboardingQueryOptions } from '../team/queries';

/** What each step needs, and the guide that explains it. */
const STEPS: Record<OnboardingStep, { needs: AreaId[]; guide: string }> = {
  'team-created': { needs: [], guide: '/docs/teams' },
  'agent-created': { needs: ['agents'], guide: '/docs/test-your-agent-profile/create-your-agent' },
  'phone-number-bought': { needs: ['phoneNumbers'], guide: '/docs/test-your-agent-profile/buy-phone-number' },
  'phone-number-paired': { needs: ['agents', 'phoneNumbers'], guide: '/docs/test-your-agent-profile/pair-phone-number-and-agent' },
  'test-call-made': { needs: ['agents', 'phoneNumbers', 'calls'], guide: '/docs/test-your-agent-profile/test-call-the-phone-number' },
};

export function OnboardingChecklist({ teamId, compact = false }: { teamId: string; compact?: boolean }) {
  const onboarding = useQuery(onboardingQueryOptions(teamId));
  if (onboarding.isPending) return <SkeletonText label="Loading the checklist…" lines={5} />;
  if (onboarding.isError) return <ErrorState error={onboarding.error} onRetry={() => void onboarding.refetch()} />;
  const { items, completed } = onboarding.data;
  const done = items.filter((i) => i.done).length;
  const blocked = items.filter((i) => !i.done && availableWhen(STEPS[i.key].needs)).length;
  return (
    <div>
      <div className="flex items-center justify-between gap-3 text-sm">
        <p className="font-medium text-fg">{completed ? 'All steps done' : `${done} of ${items.length} steps done`}</p>
        <span className="text-fg-subtle">{Math.round((done / items.length) * 100)}%</span>
      </div>
      <div className="mt-2 h-2 overflow-hidden rounded-full bg-muted" role="progressbar" aria-label="Onboarding progress" aria-valuemin={0} aria-valuemax={items.length} aria-valuenow={done}>
        <div className="h-full rounded-full bg-accent" style={{ width: `${(done / items.length) * 100}%` }} />
      </div>
      {blocked > 0 && (
        <p className="mt-2 text-xs text-fg-subtle">
          {blocked === 1 ? 'One step needs' : `${blocked} steps need`} parts of Betty that are coming soon; {blocked === 1 ? 'it ticks' : 'they tick'} off once they exist and you use them.
        </p>
      )}
      <ol className={cn('mt-4 space-y-2', compact && 'space-y-1')}>
        {items.map((item, index) => {
          const waitingFor = item.done ? '' : availableWhen(STEPS[item.key].needs);
          return (
            <li key={item.key} className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-line bg-surface px-3 py-2.5">
              <span aria-hidden="true" className={cn('flex size-6 shrink-0 items-center justify-center rounded-full text-xs font-semibold', item.done ? 'bg-success-subtle text-success-fg' : 'bg-muted text-fg-muted')}>
                {item.done ? '✓' : index + 1}
              </span>
              <span className={cn('min-w-0 flex-1 basis-40 text-sm', item.done ? 'text-fg-subtle line-through' : waitingFor ? 'text-fg-muted' : 'text-fg')}>
                {item.label}
                <span className="sr-only">{item.done ? ' (done)' : waitingFor ? ' (not possible yet)' : ' (to do)'}</span>
              </span>
              {waitingFor ? (
                <span className="ml-auto text-right text-xs text-fg-subtle" data-testid="step-unavailable">
                  {waitingFor}
                </span>
              ) : (
                !compact &&
                !item.done && (
                  <Link to={STEPS[item.key].guide} className="text-sm font-medium whitespace-nowrap text-accent-fg hover:underline">
                    How to
                  </Link>
                )
              )}
            </li>
          );
        })}
      </ol>
    </div>
  );
}

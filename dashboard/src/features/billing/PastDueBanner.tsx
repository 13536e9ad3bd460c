import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';

import type { Organization } from '../../api/gen/model';
import { area } from '../../lib/features';
import { can } from '../../lib/roles';
import { teamPath } from '../team/TeamContext';
import { subscriptionStatusQueryOptions } from './queries';

/** Across the shell while the team's plan payment failed (past due or unpaid), for those who see billing. */
export function PastDueBanner({ team }: { team: Organization | null }) {
  const allowed = team !== null && can(team.myRole, 'viewBilling').allowed;
  const status = useQuery({ ...subscriptionStatusQueryOptions(team?.id ?? ''), enabled: allowed, staleTime: 5 * 60 * 1000, retry: false });
  if (!allowed || !status.data || (status.data.status !== 'past_due' && status.data.status !== 'unpaid')) return null;
  return (
    <div role="status" data-testid="past-due-banner" className="flex flex-wrap items-center justify-between gap-2 border-b border-warning-line bg-warning-subtle px-4 py-2 text-sm text-warning-fg sm:px-6">
      <p className="min-w-0 flex-1 basis-64">
        {status.data.status === 'past_due'
          ? `The last payment of ${team.name}’s plan failed; Stripe is retrying it.`
          : `${team.name}’s plan is unpaid; paid features are paused.`}
      </p>
      <Link to={teamPath(area('billing').path, team.id)} className="font-medium underline">
        Update payment
      </Link>
    </div>
  );
}

import { Link } from 'react-router';

import { PageHeader } from '../../components/PageHeader';
import { Badge } from '../../components/ui/badge';
import { LEVEL_NAMES, TIER_NAMES } from '../../lib/plans';
import { ROLE_LABELS } from '../../lib/roles';
import { OnboardingChecklist } from '../onboarding/OnboardingChecklist';
import { teamPath, useCurrentTeam, useTeamContext } from './TeamContext';

export default function DashboardHomePage() {
  const team = useCurrentTeam();
  const { user } = useTeamContext();
  const greeting = user.profile.name ? `Welcome, ${user.profile.name}` : 'Welcome';
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader title={team.name} description={greeting} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <section aria-labelledby="onboarding-heading" className="rounded-xl border border-zinc-200 bg-white p-5">
          <div className="mb-4 flex items-center justify-between gap-2">
            <h2 id="onboarding-heading" className="font-semibold text-zinc-900">
              Getting set up
            </h2>
            <Link to={teamPath('/onboarding', team.id)} className="text-sm font-medium text-brand-700 hover:underline">
              Open checklist
            </Link>
          </div>
          <OnboardingChecklist teamId={team.id} compact />
        </section>
        <section aria-labelledby="team-heading" className="rounded-xl border border-zinc-200 bg-white p-5 text-sm">
          <h2 id="team-heading" className="font-semibold text-zinc-900">
            Your team
          </h2>
          <dl className="mt-3 space-y-2">
            <div className="flex justify-between gap-2">
              <dt className="text-zinc-500">Your role</dt>
              <dd>{team.myRole ? ROLE_LABELS[team.myRole] : '—'}</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-zinc-500">Plan</dt>
              <dd>{TIER_NAMES[team.subscriptionTier]}</dd>
            </div>
            <div className="flex justify-between gap-2">
              <dt className="text-zinc-500">Verification</dt>
              <dd>
                <Badge tone={team.verificationLevel === 'none' ? 'neutral' : 'success'}>{LEVEL_NAMES[team.verificationLevel]}</Badge>
              </dd>
            </div>
            {team.companyName && (
              <div className="flex justify-between gap-2">
                <dt className="text-zinc-500">Company</dt>
                <dd className="truncate">{team.companyName}</dd>
              </div>
            )}
          </dl>
          <div className="mt-4 flex flex-col gap-1">
            <Link to={teamPath('/dashboard/members', team.id)} className="font-medium text-brand-700 hover:underline">
              Members
            </Link>
            <Link to={teamPath('/dashboard/team', team.id)} className="font-medium text-brand-700 hover:underline">
              Team settings
            </Link>
          </div>
        </section>
      </div>
    </div>
  );
}

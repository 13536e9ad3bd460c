import { useQuery } from '@tanstack/react-query';
import { Activity, Building2, KeyRound, ListChecks, Megaphone, PhoneCall, Plus, UserPlus, Users, Wallet } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { Badge } from '../../components/ui/badge';
import { buttonClasses } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { SkeletonText } from '../../components/ui/skeleton';
import { StatTile } from '../../components/ui/stat-tile';
import { recentActivity, type ActivityEntry } from '../../lib/activity';
import { formatDate } from '../../lib/dates';
import { area, isAvailable } from '../../lib/features';
import { actionPath } from '../../lib/palette';
import { LEVEL_NAMES, TIER_NAMES } from '../../lib/plans';
import { ROLE_LABELS, can } from '../../lib/roles';
import { SiteAdminNotice } from '../admin/SiteAdminNotice';
import { apiKeysQueryOptions } from '../api-keys/queries';
import { formatCredits } from '../billing/billing';
import { creditsQueryOptions } from '../billing/queries';
import { lastDays } from '../calls/format';
import { statisticsQueryOptions } from '../calls/queries';
import { activeCampaignCountQueryOptions } from '../campaigns/queries';
import { membersQueryOptions } from '../members/queries';
import { OnboardingChecklist } from '../onboarding/OnboardingChecklist';
import { onboardingQueryOptions } from './queries';
import { teamPath, useCurrentTeam, useTeamContext } from './TeamContext';

const ACTIVITY_ICONS: Record<ActivityEntry['kind'], ReactNode> = {
  joined: <Users />,
  invited: <UserPlus />,
  apiKey: <KeyRound />,
  team: <Building2 />,
};

export default function DashboardHomePage() {
  const team = useCurrentTeam();
  const { user } = useTeamContext();
  const keysAllowed = can(team.myRole, 'manageApiKeys').allowed;
  const inviteAllowed = can(team.myRole, 'manageMembers').allowed;
  const creditsShown = isAvailable('billing') && can(team.myRole, 'viewBilling').allowed;
  const members = useQuery(membersQueryOptions(team.id, 1));
  const keys = useQuery({ ...apiKeysQueryOptions(team.id), enabled: keysAllowed });
  const campaigns = useQuery({ ...activeCampaignCountQueryOptions(team.id), retry: false });
  const onboarding = useQuery(onboardingQueryOptions(team.id));
  const credits = useQuery({ ...creditsQueryOptions(team.id), enabled: creditsShown });
  const callsShown = isAvailable('calls');
  const callsToday = useQuery({ ...statisticsQueryOptions(team.id, lastDays(1)), enabled: callsShown, retry: false });
  const greeting = user.profile.name ? `Welcome back, ${user.profile.name.split(' ')[0]}.` : 'Welcome back.';

  const activity = members.data && (!keysAllowed || keys.data) ? recentActivity({ team, members: members.data.data, apiKeys: keys.data ?? [] }) : undefined;
  const checklistOpen = onboarding.data ? !onboarding.data.completed : true;
  const later = [area('calls'), area('billing')].filter((a) => !a.available);
  const laterFigures = later.map((a) => (a.id === 'calls' ? 'Calls today' : 'credits'));
  const tiles = 3 + (keysAllowed ? 1 : 0) + (creditsShown ? 1 : 0) + (callsShown ? 1 : 0);

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader
        title={team.name}
        description={`${greeting} Here is how ${team.name} is doing.`}
        actions={
          inviteAllowed ? (
            <Link to={actionPath('/dashboard/members', team.id, 'invite')} className={buttonClasses('secondary')}>
              <UserPlus aria-hidden="true" />
              Invite member
            </Link>
          ) : undefined
        }
      />

      <SiteAdminNotice user={user} />

      <section aria-labelledby="glance-heading">
        <h2 id="glance-heading" className="sr-only">
          At a glance
        </h2>
        <div className={`grid grid-cols-2 gap-3 sm:gap-4 ${tiles > 5 ? 'lg:grid-cols-3 xl:grid-cols-6' : tiles > 4 ? 'lg:grid-cols-5' : 'lg:grid-cols-4'}`}>
          <StatTile
            label="Members"
            icon={<Users />}
            value={members.isError ? '—' : members.data?.meta.totalSize}
            hint={members.isError ? 'Could not load' : 'Active and invited'}
            to={teamPath('/dashboard/members', team.id)}
            testId="stat-members"
          />
          {keysAllowed && (
            <StatTile
              label="API keys"
              icon={<KeyRound />}
              value={keys.isError ? '—' : keys.data?.length}
              hint={keys.isError ? 'Could not load' : 'Acting for this team'}
              to={teamPath('/dashboard/api-keys', team.id)}
              testId="stat-api-keys"
            />
          )}
          <StatTile
            label="Active campaigns"
            icon={<Megaphone />}
            value={campaigns.isError ? '—' : campaigns.data}
            hint={campaigns.isError ? 'Could not load' : isAvailable('campaigns') ? 'Running now' : 'Campaign screens are coming soon'}
            {...(isAvailable('campaigns') ? { to: teamPath(area('campaigns').path, team.id) } : {})}
            testId="stat-campaigns"
          />
          {callsShown && (
            <StatTile
              label="Calls today"
              icon={<PhoneCall />}
              value={callsToday.isError ? '—' : callsToday.data?.totalCalls}
              hint={callsToday.isError ? 'Could not load' : 'Started since midnight UTC'}
              to={teamPath(area('calls').path, team.id)}
              testId="stat-calls-today"
            />
          )}
          {creditsShown && (
            <StatTile
              label="Credits"
              icon={<Wallet />}
              value={credits.isError ? '—' : credits.data && formatCredits(credits.data.balance).replace(/ credits?$/, '')}
              hint={credits.isError ? 'Could not load' : 'Balance for calls'}
              to={teamPath(area('billing').path, team.id)}
              testId="stat-credits"
            />
          )}
          <StatTile label="Your role" icon={<Building2 />} value={<span className="text-xl">{team.myRole ? ROLE_LABELS[team.myRole] : '—'}</span>} hint={`${TIER_NAMES[team.subscriptionTier]} plan`} />
        </div>
        {later.length > 0 && (
          <p className="mt-3 text-xs text-fg-subtle" data-testid="later-figures">
            {laterFigures.join(' and ')} show here once {later.map((a) => a.noun).join(' and ')} {later.length === 1 && later[0]!.singular ? 'is' : 'are'} built.
          </p>
        )}
      </section>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="space-y-6">
          {checklistOpen && (
            <Card as="section" aria-labelledby="onboarding-heading">
              <CardHeader
                id="onboarding-heading"
                icon={<ListChecks />}
                title="Getting set up"
                description="The steps from a new team to a first test call."
                action={
                  <Link to={teamPath('/onboarding', team.id)} className="text-sm font-medium text-accent-fg hover:underline">
                    Open checklist
                  </Link>
                }
              />
              <CardBody>
                <OnboardingChecklist teamId={team.id} compact />
              </CardBody>
            </Card>
          )}
          <Card as="section" aria-labelledby="activity-heading">
            <CardHeader id="activity-heading" icon={<Activity />} title="Recent activity" description="Who joined, who was invited and which keys were made." />
            <CardBody>
              {activity === undefined ? (
                members.isError || keys.isError ? (
                  <p className="text-sm text-fg-muted">The activity could not be loaded.</p>
                ) : (
                  <SkeletonText label="Loading recent activity…" lines={4} />
                )
              ) : (
                <ol className="space-y-3" data-testid="activity">
                  {activity.map((entry) => (
                    <li key={entry.id} className="flex items-start gap-3 text-sm">
                      <span aria-hidden="true" className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full bg-muted text-fg-subtle [&_svg]:size-3.5">
                        {ACTIVITY_ICONS[entry.kind]}
                      </span>
                      <span className="min-w-0 flex-1 text-fg-soft">{entry.text}</span>
                      <time dateTime={entry.at} className="shrink-0 text-xs text-fg-subtle">
                        {formatDate(entry.at)}
                      </time>
                    </li>
                  ))}
                </ol>
              )}
            </CardBody>
          </Card>
        </div>

        <div className="space-y-6">
          <Card as="section" aria-labelledby="team-heading">
            <CardHeader id="team-heading" icon={<Building2 />} title="Your team" />
            <CardBody>
              <dl className="space-y-2.5 text-sm">
                <div className="flex justify-between gap-2">
                  <dt className="text-fg-subtle">Plan</dt>
                  <dd className="text-fg">{TIER_NAMES[team.subscriptionTier]}</dd>
                </div>
                <div className="flex justify-between gap-2">
                  <dt className="text-fg-subtle">Verification</dt>
                  <dd>
                    <Badge tone={team.verificationLevel === 'none' ? 'neutral' : 'success'}>{LEVEL_NAMES[team.verificationLevel]}</Badge>
                  </dd>
                </div>
                {team.companyName && (
                  <div className="flex justify-between gap-2">
                    <dt className="text-fg-subtle">Company</dt>
                    <dd className="truncate text-fg">{team.companyName}</dd>
                  </div>
                )}
                <div className="flex justify-between gap-2">
                  <dt className="text-fg-subtle">Created</dt>
                  <dd className="text-fg">{formatDate(team.createdAt)}</dd>
                </div>
              </dl>
              <div className="mt-4 flex flex-col gap-1.5 text-sm">
                <Link to={teamPath('/dashboard/members', team.id)} className="font-medium text-accent-fg hover:underline">
                  Members
                </Link>
                <Link to={teamPath('/dashboard/team', team.id)} className="font-medium text-accent-fg hover:underline">
                  Team settings
                </Link>
              </div>
            </CardBody>
          </Card>
          {keysAllowed && (
            <Card as="section" aria-labelledby="build-heading">
              <CardHeader id="build-heading" icon={<KeyRound />} title="Connect your code" description="An API key lets your own code act for the team." />
              <CardBody>
                <Link to={actionPath('/dashboard/api-keys', team.id, 'create')} className={buttonClasses('secondary', 'md', 'w-full')}>
                  <Plus aria-hidden="true" />
                  Create API key
                </Link>
              </CardBody>
            </Card>
          )}
        </div>
      </div>
    </div>
  );
}

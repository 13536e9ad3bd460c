import { useQuery } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';

import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { PageSkeleton, ErrorState } from '../../components/ui/states';
import { Tabs, TabsContent, TabsList } from '../../components/ui/tabs';
import { can } from '../../lib/roles';
import { CampaignKnowledgeTab } from '../knowledge/CampaignKnowledgeTab';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { CampaignWorkflowTab } from '../workflows/CampaignWorkflowTab';
import { CampaignAgentsTab } from './CampaignAgentsTab';
import { CampaignStatusBadge } from './CampaignsPage';
import { CampaignPhoneTab } from './CampaignPhoneTab';
import { CampaignSettingsTab } from './CampaignSettingsTab';
import { DIRECTION_LABELS } from './labels';
import { campaignQueryOptions } from './queries';

export const CAMPAIGN_SECTIONS = [
  { value: 'agent-profile', label: 'Agent Profile' },
  { value: 'phone-numbers', label: 'Phone Numbers' },
  { value: 'knowledge-base', label: 'Knowledge Base' },
  { value: 'workflow', label: 'Workflow' },
  { value: 'settings', label: 'Settings' },
] as const;
export type CampaignSection = (typeof CAMPAIGN_SECTIONS)[number]['value'];

export function isCampaignSection(value: string | undefined): value is CampaignSection {
  return CAMPAIGN_SECTIONS.some((s) => s.value === value);
}

/**
 * /dashboard/campaigns/:campaignId/:section — one campaign, a tab per section, the tab in the path.
 * /dashboard/campaigns/:campaignId/knowledge-base/add-faq opens the Knowledge Base tab's FAQ form.
 */
export default function CampaignPage({ addFaq = false }: { addFaq?: boolean }) {
  const team = useCurrentTeam();
  const navigate = useNavigate();
  const { search } = useLocation();
  const { campaignId = '', section: sectionParam } = useParams();
  const section = addFaq ? 'knowledge-base' : sectionParam;
  const campaign = useQuery({ ...campaignQueryOptions(campaignId), refetchInterval: 10_000 });
  const listPath = teamPath('/dashboard/campaigns', team.id);

  // The bare campaign path and the spec's edit-agent-profile path (with its agentId) open the Agent Profile tab.
  if (!isCampaignSection(section)) return <Navigate to={`/dashboard/campaigns/${campaignId}/agent-profile${search}`} replace />;
  if (campaign.isPending) return <PageSkeleton label="Loading the campaign…" />;
  if (campaign.isError)
    return (
      <div className="mx-auto max-w-5xl">
        <PageHeader title="Campaign" breadcrumbs={[{ label: 'Campaigns', to: listPath }]} />
        <ErrorState error={campaign.error} onRetry={() => void campaign.refetch()} />
      </div>
    );

  const c = campaign.data;
  const edit = can(team.myRole, 'editCalling');
  return (
    <div className="mx-auto max-w-5xl">
      <PageHeader
        title={c.name}
        breadcrumbs={[{ label: 'Campaigns', to: listPath }]}
        description={
          <span className="inline-flex flex-wrap items-center gap-2">
            <CampaignStatusBadge status={c.status} />
            <span>
              {DIRECTION_LABELS[c.type]} · {c.purpose} · {c.phoneNumber ?? 'no number yet'}
            </span>
          </span>
        }
        actions={
          edit.allowed ? (
            <Button variant="secondary" onClick={() => void navigate(teamPath(`/dashboard/campaigns/${c.id}/edit`, team.id))}>
              <Pencil aria-hidden="true" />
              Edit campaign
            </Button>
          ) : undefined
        }
      />
      <Tabs value={section} onValueChange={(value) => void navigate(teamPath(`/dashboard/campaigns/${c.id}/${value}`, team.id))}>
        <TabsList label="Campaign sections" tabs={CAMPAIGN_SECTIONS.map((s) => ({ value: s.value, label: s.label }))} />
        <TabsContent value="agent-profile" className="pt-5 focus:outline-none">
          <CampaignAgentsTab team={team} campaign={c} />
        </TabsContent>
        <TabsContent value="phone-numbers" className="pt-5 focus:outline-none">
          <CampaignPhoneTab team={team} campaign={c} />
        </TabsContent>
        <TabsContent value="knowledge-base" className="pt-5 focus:outline-none">
          <CampaignKnowledgeTab key={c.id} team={team} campaign={c} addFaq={addFaq} />
        </TabsContent>
        <TabsContent value="workflow" className="pt-5 focus:outline-none">
          <CampaignWorkflowTab team={team} campaign={c} />
        </TabsContent>
        <TabsContent value="settings" className="pt-5 focus:outline-none">
          <CampaignSettingsTab key={c.id} team={team} campaign={c} />
        </TabsContent>
      </Tabs>
    </div>
  );
}

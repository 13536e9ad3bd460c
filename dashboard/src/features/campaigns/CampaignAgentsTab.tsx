import { Bot, Plus, UserPlus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import type { Campaign, Organization } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { AgentEditor } from '../agents/AgentEditor';
import { AgentsTable } from '../agents/AgentsTable';
import { editorState, withEditor } from '../agents/editorParams';
import { campaignAgentsQueryOptions } from '../agents/queries';
import { AttachAgentDialog } from './AttachAgentDialog';

/** The campaign's agents, the active one first; `agentId` or `createAgent=true` opens the editor. */
export function CampaignAgentsTab({ team, campaign }: { team: Organization; campaign: Campaign }) {
  const [params, setParams] = useSearchParams();
  const state = editorState(params);
  const list = usePagedList((page) => campaignAgentsQueryOptions(campaign.id, team.id, page), { param: 'agentsPage', enabled: state.mode === 'list' });
  const agents = list.query;
  const edit = can(team.myRole, 'editCalling');
  const [attaching, setAttaching] = useState(false);

  if (state.mode !== 'list')
    return (
      <AgentEditor
        key={state.mode === 'edit' ? state.agentId : 'new'}
        team={team}
        agentId={state.mode === 'edit' ? state.agentId : null}
        campaignId={campaign.id}
        onCreated={(agent) => setParams((p) => withEditor(p, { mode: 'edit', agentId: agent.id }), { replace: true })}
        onDone={() => setParams((p) => withEditor(p, { mode: 'list' }))}
      />
    );

  // Two ways to give the campaign an agent: make a new one here, or bring one the team has.
  const add = edit.allowed ? (
    <div className="flex flex-wrap gap-2">
      <Button onClick={() => setParams((p) => withEditor(p, { mode: 'create' }))}>
        <Plus aria-hidden="true" />
        Create agent
      </Button>
      <Button variant="secondary" onClick={() => setAttaching(true)}>
        <UserPlus aria-hidden="true" />
        Add an existing agent
      </Button>
      <AttachAgentDialog team={team} campaign={campaign} open={attaching} onOpenChange={setAttaching} />
    </div>
  ) : undefined;

  if (agents.isPending) return <SkeletonList label="Loading the campaign’s agents…" columns={3} />;
  if (agents.isError) return <ErrorState error={agents.error} onRetry={() => void agents.refetch()} />;
  if (agents.data.data.length === 0)
    return (
      <EmptyState icon={<Bot />} title="No agent in this campaign yet" action={add}>
        The agent is who speaks on this campaign’s calls: its greeting, voice, FAQ and what it learnt from recordings.
      </EmptyState>
    );
  return (
    <div className="space-y-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-fg-muted">One agent at a time is active: it takes the campaign’s calls.</p>
        {add}
      </div>
      <AgentsTable team={team} caption={`Agents of ${campaign.name}`} agents={agents.data.data} meta={agents.data.meta} onPageChange={list.setPage} onEdit={(a) => setParams((p) => withEditor(p, { mode: 'edit', agentId: a.id }))} />
    </div>
  );
}

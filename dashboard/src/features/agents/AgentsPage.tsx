import { useQuery } from '@tanstack/react-query';
import { Bot, Plus } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import type { Organization } from '../../api/gen/model';
import { Button } from '../../components/ui/button';
import { PageHeader } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { AgentEditor } from './AgentEditor';
import { AgentsTable } from './AgentsTable';
import { editorState, withEditor } from './editorParams';
import { agentQueryOptions, agentsQueryOptions } from './queries';

export default function AgentsPage() {
  const team = useCurrentTeam();
  return (
    <div className="mx-auto max-w-5xl">
      <Agents key={team.id} team={team} />
    </div>
  );
}

function Agents({ team }: { team: Organization }) {
  const [params, setParams] = useSearchParams();
  const state = editorState(params);
  const list = usePagedList((page) => agentsQueryOptions(team.id, page), { enabled: state.mode === 'list' });
  const agents = list.query;
  const edit = can(team.myRole, 'editCalling');
  const agentsPath = teamPath('/dashboard/agents', team.id);
  // The editor reads the same agent; the title shares its cache entry.
  const open = useQuery({ ...agentQueryOptions(state.mode === 'edit' ? state.agentId : '', team.id), enabled: state.mode === 'edit' });

  if (state.mode !== 'list')
    return (
      <>
        <PageHeader title={state.mode === 'create' ? 'New agent' : (open.data?.name ?? 'Agent')} breadcrumbs={[{ label: 'Agents', to: agentsPath }]} />
        <AgentEditor
          key={state.mode === 'edit' ? state.agentId : 'new'}
          team={team}
          agentId={state.mode === 'edit' ? state.agentId : null}
          onCreated={(agent) => setParams((p) => withEditor(p, { mode: 'edit', agentId: agent.id }), { replace: true })}
          onDone={() => setParams((p) => withEditor(p, { mode: 'list' }))}
        />
      </>
    );

  const add = edit.allowed ? (
    <Button onClick={() => setParams((p) => withEditor(p, { mode: 'create' }))}>
      <Plus aria-hidden="true" />
      New agent
    </Button>
  ) : undefined;

  let content;
  if (agents.isPending) content = <SkeletonList label="Loading agents…" columns={3} />;
  else if (agents.isError) content = <ErrorState error={agents.error} onRetry={() => void agents.refetch()} />;
  else if (agents.data.data.length === 0)
    content = (
      <EmptyState icon={<Bot />} title="No agents yet" action={add}>
        An agent is who speaks on your calls. Make one here, or inside a campaign so it joins it.
      </EmptyState>
    );
  else
    content = (
      <AgentsTable
        team={team}
        caption={`Agents of ${team.name}`}
        agents={agents.data.data}
        meta={agents.data.meta}
        onPageChange={list.setPage}
        onEdit={(a) => setParams((p) => withEditor(p, { mode: 'edit', agentId: a.id }))}
        campaignCell={(a) =>
          a.campaignId ? (
            <Link className="text-accent-fg underline underline-offset-2" to={teamPath(`/dashboard/campaigns/${a.campaignId}/agent-profile`, team.id)}>
              Open campaign
            </Link>
          ) : (
            <span className="text-fg-subtle">None</span>
          )
        }
      />
    );

  return (
    <>
      <PageHeader title="Agents" description="Each agent has a persona, a greeting, a voice, an FAQ and what it learnt from recordings." actions={agents.data && agents.data.meta.totalSize > 0 ? add : undefined} />
      {content}
    </>
  );
}

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Copy, Plus, Workflow as WorkflowIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import type { Campaign, CampaignWorkflowSummary, Organization } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card, CardBody, CardHeader } from '../../components/ui/card';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { RunControls } from '../runs/RunControls';
import { RunsPanel } from '../runs/RunsPanel';
import { teamPath } from '../team/TeamContext';
import { CreateWorkflowDialog } from './CreateWorkflowDialog';
import { CAMPAIGN_WORKFLOWS_PAGE_SIZE, CAMPAIGN_WORKFLOWS_POLL_MS, campaignWorkflowsQueryOptions, duplicateCampaignWorkflowMutationOptions, toggleCampaignWorkflowMutationOptions, workflowQueryOptions } from './queries';
import { PROMPT_STATUS_LABELS } from './labels';

/** A campaign's Workflow tab: its workflows (5 a page, polled every 10 s), which one is active, copies. */
export function CampaignWorkflowTab({ team, campaign }: { team: Organization; campaign: Campaign }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const list = usePagedList((page) => campaignWorkflowsQueryOptions(campaign.id, page), { param: 'workflowPage', refetchInterval: CAMPAIGN_WORKFLOWS_POLL_MS });
  const toggle = useMutation(toggleCampaignWorkflowMutationOptions(queryClient));
  const duplicate = useMutation(duplicateCampaignWorkflowMutationOptions(queryClient));
  const [creating, setCreating] = useState(false);
  // The switch moves at once; the list's next answer replaces it, and an error puts it back.
  const [optimistic, setOptimistic] = useState<Record<string, boolean>>({});
  const edit = can(team.myRole, 'editCalling');
  const open = (id: string) => teamPath(`/dashboard/workflow-canvas?workflowId=${encodeURIComponent(id)}`, team.id);
  const q = list.query;

  const columns: Column<CampaignWorkflowSummary>[] = [
    { key: 'name', header: 'Name', cell: (w) => <Link className="font-medium text-accent-fg hover:underline" to={open(w.id)}>{w.name}</Link> },
    { key: 'prompt', header: 'Prompt', cell: (w) => <Badge tone={w.readablePromptStatus === 'error' ? 'declined' : 'neutral'}>{PROMPT_STATUS_LABELS[w.readablePromptStatus]}</Badge>, hideOnMobile: true },
    { key: 'updated', header: 'Updated', cell: (w) => formatDateTime(w.updatedAt), hideOnMobile: true },
    {
      key: 'active',
      header: 'Active',
      cell: (w) => (
        <label className="inline-flex items-center gap-2 text-sm">
          <input
            type="checkbox"
            role="switch"
            className="size-4 accent-(--color-accent)"
            checked={optimistic[w.id] ?? w.active}
            disabled={!edit.allowed || toggle.isPending}
            aria-label={`${w.name} is the campaign's active workflow`}
            onChange={(e) => {
              const active = e.target.checked;
              setOptimistic((o) => ({ ...o, [w.id]: active }));
              toggle.mutate(
                { workflowId: w.id, campaignId: campaign.id, active },
                {
                  onSuccess: () => toast.success(active ? `${w.name} is now the campaign's workflow.` : `${campaign.name} has no active workflow now.`),
                  onError: (err) => toast.error(err),
                  onSettled: () =>
                    setOptimistic((o) => {
                      const { [w.id]: _, ...rest } = o;
                      return rest;
                    }),
                },
              );
            }}
          />
          <span className="sr-only sm:not-sr-only">{(optimistic[w.id] ?? w.active) ? 'Active' : 'Inactive'}</span>
        </label>
      ),
    },
    {
      key: 'copy',
      header: 'Copy',
      className: 'w-12',
      cell: (w) =>
        edit.allowed ? (
          <Button
            size="icon"
            variant="ghost"
            aria-label={`Duplicate ${w.name}`}
            disabled={duplicate.isPending}
            onClick={() =>
              duplicate.mutate(
                { workflowId: w.id, campaignId: campaign.id },
                {
                  onSuccess: () => {
                    toast.success(`A copy of ${w.name} was made.`);
                    const index = q.data?.data.findIndex((x) => x.id === w.id) ?? 0;
                    list.afterDuplicate(index, CAMPAIGN_WORKFLOWS_PAGE_SIZE);
                  },
                  onError: (err) => toast.error(err),
                },
              )
            }
          >
            <Copy aria-hidden="true" />
          </Button>
        ) : null,
    },
  ];

  return (
    <div className="space-y-4">
      {campaign.workflowId && <ActiveWorkflowRuns team={team} workflowId={campaign.workflowId} />}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-fg-muted">The active workflow is the call flow this campaign runs; only one is active at a time.</p>
        {edit.allowed && (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            New workflow
          </Button>
        )}
      </div>
      {q.isPending ? (
        <SkeletonList label="Loading workflows…" />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.data.length === 0 ? (
        <EmptyState icon={<WorkflowIcon />} title="No workflow yet" action={edit.allowed ? <Button onClick={() => setCreating(true)}>New workflow</Button> : undefined}>
          Draw this campaign&apos;s call flow: what the agent says, what it listens for, where each answer leads.
        </EmptyState>
      ) : (
        <DataTable caption={`Workflows of ${campaign.name}`} columns={columns} rows={q.data.data} rowKey={(w) => w.id} pageInfo={q.data.meta} onPageChange={list.setPage} />
      )}
      <CreateWorkflowDialog open={creating} onOpenChange={setCreating} organizationId={team.id} campaign={{ id: campaign.id, type: campaign.type }} onCreated={(id) => void navigate(open(id))} />
    </div>
  );
}

/** The campaign's active workflow: Run and Test run, its latest run live and its history. */
function ActiveWorkflowRuns({ team, workflowId }: { team: Organization; workflowId: string }) {
  const workflow = useQuery({ ...workflowQueryOptions(workflowId), refetchInterval: false });
  return (
    <Card as="section" aria-labelledby="active-workflow-runs">
      <CardHeader
        id="active-workflow-runs"
        icon={<WorkflowIcon />}
        title={workflow.data ? `Runs of ${workflow.data.name}` : 'Runs of the active workflow'}
        description="Run calls every contact of the active workflow that was not called yet."
        action={workflow.data ? <div className="flex flex-wrap justify-end gap-2"><RunControls team={team} workflow={workflow.data} size="sm" /></div> : undefined}
      />
      <CardBody>
        {workflow.isError ? <ErrorState error={workflow.error} onRetry={() => void workflow.refetch()} /> : <RunsPanel team={team} workflowId={workflowId} />}
      </CardBody>
    </Card>
  );
}

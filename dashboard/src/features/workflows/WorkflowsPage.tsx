import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MoreHorizontal, Plus, Workflow as WorkflowIcon } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import type { Organization, Workflow } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { CreateWorkflowDialog } from './CreateWorkflowDialog';
import { PROMPT_STATUS_LABELS } from './labels';
import { deleteWorkflowMutationOptions, workflowsQueryOptions } from './queries';


/** /dashboard/workflow-canvas — the team's workflows; each opens on the canvas. */
export default function WorkflowsPage() {
  const team = useCurrentTeam();
  return (
    <div className="mx-auto max-w-5xl">
      <WorkflowList key={team.id} team={team} />
    </div>
  );
}

function WorkflowList({ team }: { team: Organization }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const list = usePagedList((page) => workflowsQueryOptions(team.id, page));
  const remove = useMutation(deleteWorkflowMutationOptions(queryClient));
  const [creating, setCreating] = useState(false);
  const [toDelete, setToDelete] = useState<Workflow | null>(null);
  const edit = can(team.myRole, 'editCalling');
  const open = (id: string) => teamPath(`/dashboard/workflow-canvas?workflowId=${encodeURIComponent(id)}`, team.id);

  const columns: Column<Workflow>[] = [
    { key: 'name', header: 'Name', cell: (w) => <Link className="font-medium text-accent-fg hover:underline" to={open(w.id)}>{w.name}</Link>, sortValue: (w) => w.name },
    { key: 'type', header: 'Direction', cell: (w) => (w.workflowType === 'inbound' ? 'Inbound' : 'Outbound') },
    { key: 'prompt', header: 'Prompt', cell: (w) => <Badge tone={w.readablePromptStatus === 'error' ? 'declined' : 'neutral'}>{PROMPT_STATUS_LABELS[w.readablePromptStatus]}</Badge>, hideOnMobile: true },
    { key: 'updated', header: 'Updated', cell: (w) => formatDateTime(w.updatedAt), hideOnMobile: true },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-12',
      cell: (w) =>
        edit.allowed ? (
          <DropdownMenu>
            <DropdownMenuTrigger className="rounded p-1.5 text-fg-subtle hover:bg-muted" aria-label={`Actions for ${w.name}`}>
              <MoreHorizontal aria-hidden="true" className="size-4" />
            </DropdownMenuTrigger>
            <DropdownMenuContent label={w.name}>
              <DropdownMenuItem onSelect={() => void navigate(open(w.id))}>Open canvas</DropdownMenuItem>
              <DropdownMenuItem danger onSelect={() => setToDelete(w)}>
                Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null,
    },
  ];

  const q = list.query;
  return (
    <>
      <PageHeader
        title="Workflows"
        description="Call flows your agents follow, drawn on a canvas."
        actions={
          edit.allowed ? (
            <Button onClick={() => setCreating(true)}>
              <Plus aria-hidden="true" />
              New workflow
            </Button>
          ) : undefined
        }
      />
      {!edit.allowed && <RoleNotice>{edit.reason}</RoleNotice>}
      {q.isPending ? (
        <SkeletonList label="Loading workflows…" />
      ) : q.isError ? (
        <ErrorState error={q.error} onRetry={() => void q.refetch()} />
      ) : q.data.data.length === 0 ? (
        <EmptyState icon={<WorkflowIcon />} title="No workflows yet" action={edit.allowed ? <Button onClick={() => setCreating(true)}>New workflow</Button> : undefined}>
          Draw what your agent says, what it listens for and where each answer leads.
        </EmptyState>
      ) : (
        <DataTable caption="Workflows" columns={columns} rows={q.data.data} rowKey={(w) => w.id} pageInfo={q.data.meta} onPageChange={list.setPage} />
      )}
      <CreateWorkflowDialog open={creating} onOpenChange={setCreating} organizationId={team.id} onCreated={(id) => void navigate(open(id))} />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(o) => !o && setToDelete(null)}
        title={`Delete ${toDelete?.name ?? 'workflow'}?`}
        description="Its graph and contacts go with it. Calls already made stay in the call logs."
        confirmLabel="Delete workflow"
        busy={remove.isPending}
        onConfirm={() => {
          if (!toDelete) return;
          remove.mutate(
            { id: toDelete.id, campaignId: toDelete.campaignId },
            {
              onSuccess: () => {
                toast.success(`${toDelete.name} was deleted.`);
                list.afterDelete();
                setToDelete(null);
              },
              onError: (e) => toast.error(e),
            },
          );
        }}
      />
    </>
  );
}

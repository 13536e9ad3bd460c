import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';

import type { AgentProfile, Organization, PageMeta } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { setAgentActiveMutationOptions } from './queries';

interface AgentsTableProps {
  team: Organization;
  caption: string;
  agents: readonly AgentProfile[];
  meta: PageMeta;
  onPageChange: (page: number) => void;
  onEdit: (agent: AgentProfile) => void;
  /** What to say about an agent's campaign (the Agents page shows it; a campaign's tab does not). */
  campaignCell?: (agent: AgentProfile) => ReactNode;
}

/** What activating or deactivating an agent did: in a campaign, the others became inactive. */
export function activationMessage(agent: Pick<AgentProfile, 'name' | 'status' | 'campaignId'>): string {
  if (agent.status !== 'active') return `${agent.name} is inactive.`;
  return agent.campaignId ? `${agent.name} now answers for its campaign; the others are inactive.` : `${agent.name} is active.`;
}

export function AgentsTable({ team, caption, agents, meta, onPageChange, onEdit, campaignCell }: AgentsTableProps) {
  const queryClient = useQueryClient();
  const toggle = useMutation(setAgentActiveMutationOptions(queryClient));
  const edit = can(team.myRole, 'editCalling');

  const columns: Column<AgentProfile>[] = [
    {
      key: 'name',
      header: 'Agent',
      cell: (a) => (
        <div className="min-w-0">
          <p className="font-medium text-fg">{a.name}</p>
          <p className="mt-0.5 line-clamp-1 text-xs text-fg-subtle">{a.greeting || 'No greeting yet'}</p>
        </div>
      ),
    },
    { key: 'status', header: 'Status', cell: (a) => <Badge tone={a.status === 'active' ? 'success' : 'neutral'}>{a.status === 'active' ? 'Active' : 'Inactive'}</Badge> },
    ...(campaignCell ? [{ key: 'campaign', header: 'Campaign', hideOnMobile: true, cell: campaignCell }] : []),
    { key: 'faq', header: 'FAQ', hideOnMobile: true, cell: (a) => <span className="text-fg-muted">{Object.keys(a.faq).length}</span> },
    { key: 'updated', header: 'Updated', hideOnMobile: true, cell: (a) => <span className="text-fg-muted">{formatDateTime(a.updatedAt)}</span> },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (a) => (
        <div className="flex justify-end gap-1.5">
          {edit.allowed && (
            <Button
              variant="secondary"
              size="sm"
              busy={toggle.isPending && toggle.variables?.id === a.id}
              aria-label={a.status === 'active' ? `Deactivate ${a.name}` : `Activate ${a.name}`}
              onClick={() =>
                toggle.mutate(
                  { id: a.id, organizationId: team.id, active: a.status !== 'active' },
                  { onSuccess: (saved) => toast.success(activationMessage(saved)), onError: (e) => toast.error(e) },
                )
              }
            >
              {a.status === 'active' ? 'Deactivate' : 'Activate'}
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={() => onEdit(a)} aria-label={`Open ${a.name}`}>
            <Pencil aria-hidden="true" />
            <span className="hidden sm:inline">{edit.allowed ? 'Edit' : 'View'}</span>
          </Button>
        </div>
      ),
    },
  ];

  return <DataTable caption={caption} columns={columns} rows={agents} rowKey={(a) => a.id} pageInfo={meta} onPageChange={onPageChange} />;
}

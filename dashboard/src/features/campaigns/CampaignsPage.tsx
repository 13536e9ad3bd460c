import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Copy, Megaphone, MoreHorizontal, Pencil, Plus, SearchX, Trash2 } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import type { Campaign, CampaignStatusFilter, Organization } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from '../../components/ui/dropdown-menu';
import { Input } from '../../components/ui/input';
import { PageHeader, RoleNotice } from '../../components/ui/page-header';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDateTime } from '../../lib/dates';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { teamPath, useCurrentTeam } from '../team/TeamContext';
import { DIRECTION_LABELS } from './labels';
import { STATUS_LABELS, filtersFromParams, withFilters } from './filters';
import { CAMPAIGNS_PAGE_SIZE, CAMPAIGNS_POLL_MS, campaignsQueryOptions, deleteCampaignMutationOptions, duplicateCampaignMutationOptions } from './queries';

const STATUS_OPTIONS = (Object.keys(STATUS_LABELS) as CampaignStatusFilter[]).map((value) => ({ value, label: STATUS_LABELS[value] }));
/** How long typing in the name filter waits before it asks the server. */
const NAME_DEBOUNCE_MS = 400;

export default function CampaignsPage() {
  const team = useCurrentTeam();
  return (
    <div className="mx-auto max-w-5xl">
      <CampaignList key={team.id} team={team} />
    </div>
  );
}

function CampaignList({ team }: { team: Organization }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const filters = filtersFromParams(params);
  const list = usePagedList((page) => campaignsQueryOptions(team.id, page, filters), { refetchInterval: CAMPAIGNS_POLL_MS });
  const campaigns = list.query;
  const remove = useMutation(deleteCampaignMutationOptions(queryClient));
  const duplicate = useMutation(duplicateCampaignMutationOptions(queryClient));
  const [toDelete, setToDelete] = useState<Campaign | null>(null);
  const edit = can(team.myRole, 'editCalling');

  const [name, setName] = useState(filters.name);
  useEffect(() => setName(filters.name), [filters.name]);
  useEffect(() => {
    if (name.trim() === filters.name) return;
    const timer = setTimeout(() => setParams((current) => withFilters(current, { name }), { replace: true }), NAME_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [name, filters.name, setParams]);

  const path = (p: string) => teamPath(p, team.id);
  const filtered = filters.status !== 'all' || filters.name !== '';

  function copy(campaign: Campaign) {
    const index = campaigns.data?.data.findIndex((c) => c.id === campaign.id) ?? -1;
    duplicate.mutate(campaign.id, {
      onSuccess: (copied) => {
        toast.success(`"${copied.name}" was created as a draft.`);
        list.afterDuplicate(index, CAMPAIGNS_PAGE_SIZE);
      },
      onError: (error) => toast.error(error),
    });
  }

  const columns: Column<Campaign>[] = [
    {
      key: 'name',
      header: 'Campaign',
      cell: (c) => (
        <div className="min-w-0">
          <Link to={path(`/dashboard/campaigns/${c.id}/agent-profile`)} className="font-medium text-fg underline-offset-2 hover:underline">
            {c.name}
          </Link>
          <p className="mt-0.5 text-xs text-fg-subtle">
            {DIRECTION_LABELS[c.type]} · {c.purpose}
            <span className="sm:hidden"> · {STATUS_LABELS[c.status]}</span>
          </p>
        </div>
      ),
    },
    { key: 'status', header: 'Status', hideOnMobile: true, cell: (c) => <CampaignStatusBadge status={c.status} /> },
    {
      key: 'agent',
      header: 'Active agent',
      hideOnMobile: true,
      cell: (c) => {
        const active = c.agents.find((a) => a.status === 'active');
        return <span className="text-fg-muted">{active ? active.name : c.agents.length ? 'None active' : 'No agent'}</span>;
      },
    },
    { key: 'number', header: 'Number', hideOnMobile: true, cell: (c) => <span className="font-mono text-xs text-fg-soft">{c.phoneNumber ?? '—'}</span> },
    { key: 'updated', header: 'Updated', hideOnMobile: true, cell: (c) => <span className="text-fg-muted">{formatDateTime(c.updatedAt)}</span> },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (c) =>
        edit.allowed ? (
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button variant="ghost" size="sm" aria-label={`Actions for ${c.name}`}>
                <MoreHorizontal aria-hidden="true" />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent label={c.name}>
              <DropdownMenuItem onSelect={() => void navigate(path(`/dashboard/campaigns/${c.id}/edit`))}>
                <Pencil aria-hidden="true" className="size-4" /> Edit
              </DropdownMenuItem>
              <DropdownMenuItem onSelect={() => copy(c)} disabled={duplicate.isPending}>
                <Copy aria-hidden="true" className="size-4" /> Duplicate
              </DropdownMenuItem>
              <DropdownMenuItem danger onSelect={() => setToDelete(c)}>
                <Trash2 aria-hidden="true" className="size-4" /> Delete
              </DropdownMenuItem>
            </DropdownMenuContent>
          </DropdownMenu>
        ) : null,
    },
  ];

  const newCampaign = edit.allowed ? (
    <Button onClick={() => void navigate(path('/dashboard/campaigns/create'))}>
      <Plus aria-hidden="true" />
      New campaign
    </Button>
  ) : undefined;

  let content;
  if (campaigns.isPending) content = <SkeletonList label="Loading campaigns…" rows={CAMPAIGNS_PAGE_SIZE} columns={4} />;
  else if (campaigns.isError) content = <ErrorState error={campaigns.error} onRetry={() => void campaigns.refetch()} />;
  else if (campaigns.data.data.length === 0 && filtered)
    content = (
      <EmptyState
        icon={<SearchX />}
        title="No campaigns match these filters"
        action={
          <Button variant="secondary" onClick={() => setParams((current) => withFilters(current, { status: 'all', name: '' }))}>
            Clear filters
          </Button>
        }
      >
        Nothing is {filters.status !== 'all' ? STATUS_LABELS[filters.status].toLowerCase() : 'here'}
        {filters.name ? ` with "${filters.name}" in its name` : ''}.
      </EmptyState>
    );
  else if (campaigns.data.data.length === 0)
    content = (
      <EmptyState icon={<Megaphone />} title="No campaigns yet" action={newCampaign}>
        A campaign answers a number, or calls a list of contacts, with the agent you give it.
      </EmptyState>
    );
  else
    content = (
      <DataTable caption={`Campaigns of ${team.name}`} columns={columns} rows={campaigns.data.data} rowKey={(c) => c.id} pageInfo={campaigns.data.meta} onPageChange={list.setPage} />
    );

  return (
    <>
      <PageHeader title="Campaigns" description="Inbound campaigns answer your numbers; outbound ones call your contacts within the hours you set." actions={campaigns.data && campaigns.data.meta.totalSize > 0 ? newCampaign : undefined} />
      {!edit.allowed && (
        <div className="mb-4">
          <RoleNotice>{edit.reason}</RoleNotice>
        </div>
      )}
      <div role="search" aria-label="Filter campaigns" className="mb-4 flex flex-col gap-2 sm:flex-row">
        <Input type="search" aria-label="Filter by name" placeholder="Filter by name" value={name} onChange={(e) => setName(e.target.value)} maxLength={100} className="sm:max-w-xs" />
        <Select aria-label="Filter by status" value={filters.status} onValueChange={(status) => setParams((current) => withFilters(current, { status }))} options={STATUS_OPTIONS} className="sm:w-48" />
      </div>
      {content}
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={`Delete the campaign "${toDelete?.name ?? ''}"?`}
        description="Its workflows, their contacts and job history go with it. Its agents are kept, unlinked, and its number is freed. This cannot be undone."
        confirmLabel="Delete campaign"
        busy={remove.isPending}
        onConfirm={() =>
          toDelete &&
          remove.mutate(toDelete.id, {
            onSuccess: () => {
              toast.success(`The campaign "${toDelete.name}" was deleted.`);
              setToDelete(null);
              list.afterDelete();
            },
            onError: (error) => toast.error(error),
          })
        }
      />
    </>
  );
}

export function CampaignStatusBadge({ status }: { status: Campaign['status'] }) {
  const tone = status === 'active' ? 'success' : status === 'error' ? 'declined' : status === 'paused' ? 'warning' : 'neutral';
  return <Badge tone={tone}>{STATUS_LABELS[status]}</Badge>;
}


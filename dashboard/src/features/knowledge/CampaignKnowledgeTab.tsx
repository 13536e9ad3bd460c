import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Library, Plus, Power, PowerOff } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import type { Campaign, Organization } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Select } from '../../components/ui/select';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { FaqPage } from './FaqForm';
import { KnowledgeBaseDetail } from './KnowledgeBaseDetail';
import { KnowledgeBaseList } from './KnowledgeBaseList';
import { KnowledgeBaseNameDialog } from './KnowledgeBaseNameDialog';
import { KnowledgeSearch } from './KnowledgeSearch';
import { KB_PAGE_PARAM, knowledgeState, withKnowledgeBase } from './params';
import { KNOWLEDGE_POLL_MS, activationMutationOptions, createKnowledgeBaseMutationOptions, knowledgeBaseChoicesQueryOptions, knowledgeBasesQueryOptions } from './queries';

/**
 * A campaign's Knowledge Base tab: which knowledge base its agents answer from (one active at a
 * time), a search over it as the agents search it, and the knowledge bases linked to it.
 */
export function CampaignKnowledgeTab({ team, campaign, addFaq = false }: { team: Organization; campaign: Campaign; addFaq?: boolean }) {
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { knowledgeBaseId } = knowledgeState(params);
  const basePath = `/dashboard/campaigns/${campaign.id}/knowledge-base`;
  const list = usePagedList((page) => knowledgeBasesQueryOptions(team.id, page, campaign.id), { param: KB_PAGE_PARAM, refetchInterval: KNOWLEDGE_POLL_MS, enabled: !addFaq });
  const linked = list.query;
  const edit = can(team.myRole, 'editCalling');
  const choices = useQuery({ ...knowledgeBaseChoicesQueryOptions(team.id), enabled: edit.allowed && !addFaq });
  const activation = useMutation(activationMutationOptions(queryClient));
  const create = useMutation(createKnowledgeBaseMutationOptions(queryClient));
  const [creating, setCreating] = useState(false);
  const [choice, setChoice] = useState<string | undefined>();

  if (addFaq) return <FaqPage team={team} basePath={basePath} />;
  if (linked.isPending) return <SkeletonList label="Loading the campaign’s knowledge bases…" rows={2} columns={2} />;
  if (linked.isError) return <ErrorState error={linked.error} onRetry={() => void linked.refetch()} />;

  const rows = linked.data.data;
  // The list is by name, 20 a page: with more linked than that, the active one may be on another page.
  const active = rows.find((kb) => kb.active);
  const selectedId = knowledgeBaseId ?? active?.id ?? rows[0]?.id ?? null;
  const selected = rows.find((kb) => kb.id === selectedId);
  const options = (choices.data?.data ?? []).filter((kb) => kb.id !== active?.id).map((kb) => ({ value: kb.id, label: kb.name }));

  function setActive(id: string, name: string, on: boolean) {
    activation.mutate(
      { active: on, body: { knowledgeBaseId: id, campaignId: campaign.id, organizationId: team.id } },
      {
        onSuccess: () => {
          toast.success(on ? `"${name}" is now the knowledge base of ${campaign.name}.` : `${campaign.name} no longer answers from "${name}".`);
          setChoice(undefined);
          if (on) setParams((p) => withKnowledgeBase(p, id));
        },
        onError: (error) => toast.error(error),
      },
    );
  }

  const chosen = choices.data?.data.find((kb) => kb.id === choice);
  const newButton = edit.allowed ? (
    <Button variant="secondary" onClick={() => setCreating(true)}>
      <Plus aria-hidden="true" />
      New knowledge base
    </Button>
  ) : undefined;

  return (
    <div className="space-y-6">
      <Card className="p-4 sm:p-5">
        <h2 className="font-semibold text-fg">Active knowledge base</h2>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3" data-testid="active-knowledge-base">
          {active ? (
            <p className="flex min-w-0 flex-wrap items-center gap-2 text-sm text-fg">
              <Badge tone="success">Active</Badge>
              <span className="font-medium break-words">{active.name}</span>
              <span className="text-fg-muted">
                · {active.fileCount} entr{active.fileCount === 1 ? 'y' : 'ies'}
              </span>
            </p>
          ) : (
            <p className="text-sm text-fg-muted">None: this campaign’s agents answer from their own FAQ only.</p>
          )}
          {active && edit.allowed && (
            <Button variant="secondary" busy={activation.isPending && activation.variables?.active === false} busyLabel="Deactivating…" onClick={() => setActive(active.id, active.name, false)}>
              <PowerOff aria-hidden="true" />
              Deactivate
            </Button>
          )}
        </div>
        {edit.allowed && (
          <div className="mt-4 flex flex-col gap-2 border-t border-line-soft pt-4 sm:flex-row sm:items-center">
            {options.length > 0 ? (
              <>
                <div className="min-w-0 flex-1">
                  {/* An empty value (not undefined) puts the placeholder back after an activation. */}
                  <Select aria-label="Knowledge base to activate" value={choice ?? ''} onValueChange={setChoice} options={options} placeholder="Choose a knowledge base of your team…" />
                </div>
                <Button disabled={!chosen} busy={activation.isPending && activation.variables?.active === true} busyLabel="Activating…" onClick={() => chosen && setActive(chosen.id, chosen.name, true)}>
                  <Power aria-hidden="true" />
                  Activate
                </Button>
              </>
            ) : (
              <p className="min-w-0 flex-1 text-sm text-fg-muted">{choices.isPending ? 'Loading your team’s knowledge bases…' : active ? 'Your team has no other knowledge base to switch to.' : 'Your team has no knowledge base yet: make one for this campaign.'}</p>
            )}
            {newButton}
          </div>
        )}
      </Card>

      {active && (
        <Card className="p-4 sm:p-5">
          <KnowledgeSearch organizationId={team.id} target={{ campaignId: campaign.id }} label="What this campaign’s agents would find" hint={`Searches "${active.name}", the way the agents search it during a call.`} />
        </Card>
      )}

      {rows.length === 0 ? (
        <EmptyState icon={<Library />} title="No knowledge base linked to this campaign" action={newButton}>
          Make a knowledge base for this campaign, or activate one of your team’s above. Its agents then answer from its files and FAQs.
        </EmptyState>
      ) : (
        <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
          <Card className="self-start p-2">
            <KnowledgeBaseList label={`Knowledge bases of ${campaign.name}`} bases={rows} meta={linked.data.meta} selectedId={selectedId} onPageChange={list.setPage} showActive />
          </Card>
          {selectedId && (
            <KnowledgeBaseDetail
              key={selectedId}
              team={team}
              knowledgeBaseId={selectedId}
              knowledgeBase={selected}
              basePath={basePath}
              showSearch={false}
              onDeleted={() => {
                setParams((p) => withKnowledgeBase(p, null));
                list.afterDelete();
              }}
            />
          )}
        </div>
      )}

      {creating && (
        <KnowledgeBaseNameDialog
          open
          onOpenChange={setCreating}
          title="New knowledge base for this campaign"
          description="It is linked to this campaign, and becomes its active one when it has none."
          submitLabel="Create knowledge base"
          onSubmit={async (name) => {
            const kb = await create.mutateAsync({ name, organizationId: team.id, campaignId: campaign.id });
            toast.success(`The knowledge base "${kb.name}" was created.`);
            setParams((p) => withKnowledgeBase(p, kb.id));
          }}
        />
      )}
    </div>
  );
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Library, Plus } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';

import { Button } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { PageHeader } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { area } from '../../lib/features';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { useCurrentTeam } from '../team/TeamContext';
import { FaqPage } from './FaqForm';
import { KnowledgeBaseDetail } from './KnowledgeBaseDetail';
import { KnowledgeBaseList } from './KnowledgeBaseList';
import { KnowledgeBaseNameDialog } from './KnowledgeBaseNameDialog';
import { KB_PAGE_PARAM, knowledgeState, withKnowledgeBase } from './params';
import { KNOWLEDGE_POLL_MS, createKnowledgeBaseMutationOptions, knowledgeBasesQueryOptions } from './queries';

const BASE_PATH = area('knowledgeBases').path;

/** /dashboard/knowledge-base (and its add-faq route): the team's knowledge bases, one opened at a time. */
export default function KnowledgeBasePage({ addFaq = false }: { addFaq?: boolean }) {
  const team = useCurrentTeam();
  const queryClient = useQueryClient();
  const [params, setParams] = useSearchParams();
  const { knowledgeBaseId } = knowledgeState(params);
  const list = usePagedList((page) => knowledgeBasesQueryOptions(team.id, page), { param: KB_PAGE_PARAM, refetchInterval: KNOWLEDGE_POLL_MS });
  const bases = list.query;
  const create = useMutation(createKnowledgeBaseMutationOptions(queryClient));
  const [creating, setCreating] = useState(false);
  const edit = can(team.myRole, 'editCalling');

  const newButton = edit.allowed ? (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden="true" />
      New knowledge base
    </Button>
  ) : undefined;

  const rows = bases.data?.data ?? [];
  // Without a choice in the URL the first of the page is open.
  const selectedId = knowledgeBaseId ?? rows[0]?.id ?? null;
  const selected = rows.find((kb) => kb.id === selectedId);

  let body;
  if (addFaq) body = <FaqPage team={team} basePath={BASE_PATH} />;
  else if (bases.isPending) body = <SkeletonList label="Loading knowledge bases…" rows={3} columns={2} />;
  else if (bases.isError) body = <ErrorState error={bases.error} onRetry={() => void bases.refetch()} />;
  else if (rows.length === 0 && !knowledgeBaseId)
    body = (
      <EmptyState icon={<Library />} title="No knowledge bases yet" action={newButton}>
        A knowledge base holds documents and FAQs. Make one active on a campaign and its agents answer from it during calls.
      </EmptyState>
    );
  else
    body = (
      <div className="grid gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]">
        <Card className="self-start p-2">
          <KnowledgeBaseList label="Knowledge bases" bases={rows} meta={bases.data!.meta} selectedId={selectedId} onPageChange={list.setPage} />
        </Card>
        {selectedId && (
          <KnowledgeBaseDetail
            key={selectedId}
            team={team}
            knowledgeBaseId={selectedId}
            knowledgeBase={selected}
            basePath={BASE_PATH}
            onDeleted={() => {
              setParams((p) => withKnowledgeBase(p, null));
              list.afterDelete();
            }}
          />
        )}
      </div>
    );

  return (
    <div className="mx-auto max-w-6xl">
      <PageHeader title="Knowledge bases" description="Documents and FAQs your agents answer from. A campaign uses one active knowledge base at a time." actions={!addFaq && rows.length > 0 ? newButton : undefined} />
      {body}
      {creating && (
        <KnowledgeBaseNameDialog
          open
          onOpenChange={setCreating}
          title="New knowledge base"
          description="Give it a name your team will recognise; add files and FAQs next."
          submitLabel="Create knowledge base"
          onSubmit={async (name) => {
            const kb = await create.mutateAsync({ name, organizationId: team.id });
            toast.success(`The knowledge base "${kb.name}" was created.`);
            setParams((p) => withKnowledgeBase(p, kb.id));
          }}
        />
      )}
    </div>
  );
}

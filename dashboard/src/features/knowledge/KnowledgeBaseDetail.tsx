import { useMutation, useQueryClient } from '@tanstack/react-query';
import { FileText, HelpCircle, Loader2, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';

import type { KnowledgeBase, KnowledgeFile, Organization } from '../../api/gen/model';
import { KnowledgeFileStatus } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { RoleNotice } from '../../components/ui/page-header';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { toast } from '../../components/ui/toast-store';
import { formatDate } from '../../lib/dates';
import { can } from '../../lib/roles';
import { usePagedList } from '../../lib/usePagedList';
import { KnowledgeBaseNameDialog } from './KnowledgeBaseNameDialog';
import { KnowledgeSearch } from './KnowledgeSearch';
import { KnowledgeUploader } from './KnowledgeUploader';
import { KB_FILES_PAGE_PARAM, addFaqLocation } from './params';
import { deleteKnowledgeBaseMutationOptions, deleteKnowledgeEntryMutationOptions, filesPollMs, knowledgeFilesQueryOptions, renameKnowledgeBaseMutationOptions } from './queries';
import { count } from '../../lib/plural';

const TYPE_LABELS: Record<KnowledgeFile['type'], string> = { pdf: 'PDF', docx: 'DOCX', txt: 'Text', md: 'Markdown', csv: 'CSV', html: 'HTML', faq: 'FAQ' };

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function EntryStatus({ entry }: { entry: Pick<KnowledgeFile, 'status'> }) {
  switch (entry.status) {
    case KnowledgeFileStatus.parsing:
      return (
        <Badge tone="info" className="gap-1">
          <Loader2 aria-hidden="true" className="size-3 animate-spin motion-reduce:animate-none" />
          Parsing
        </Badge>
      );
    case KnowledgeFileStatus.success:
      return <Badge tone="success">Ready</Badge>;
    case KnowledgeFileStatus.error:
      return <Badge tone="declined">Error</Badge>;
  }
}

/**
 * One knowledge base: its name and actions, the upload drop zone, a search over it, and its files
 * and FAQs (10 a page, newest first, `knowledgeBaseFilesPage` in the URL), each with its parse status.
 */
export function KnowledgeBaseDetail({
  team,
  knowledgeBaseId,
  knowledgeBase,
  basePath,
  showSearch = true,
  onDeleted,
}: {
  team: Organization;
  knowledgeBaseId: string;
  /** Its list row, when the list on screen holds it (there is no call for one knowledge base). */
  knowledgeBase: KnowledgeBase | undefined;
  /** The page the add-faq route sits under. */
  basePath: string;
  showSearch?: boolean;
  onDeleted: () => void;
}) {
  const queryClient = useQueryClient();
  const [params] = useSearchParams();
  const edit = can(team.myRole, 'editCalling');
  // Files this page added, and when: followed closely while they parse (see queries.ts).
  const [followed, setFollowed] = useState<ReadonlyMap<string, number>>(new Map());
  const list = usePagedList((page) => knowledgeFilesQueryOptions(team.id, knowledgeBaseId, page), { param: KB_FILES_PAGE_PARAM, refetchInterval: (data) => filesPollMs(data?.data, followed, Date.now()) });
  const files = list.query;
  const rename = useMutation(renameKnowledgeBaseMutationOptions(queryClient));
  const removeBase = useMutation(deleteKnowledgeBaseMutationOptions(queryClient));
  const removeEntry = useMutation(deleteKnowledgeEntryMutationOptions(queryClient));
  const [renaming, setRenaming] = useState(false);
  const [deletingBase, setDeletingBase] = useState(false);
  const [toDelete, setToDelete] = useState<KnowledgeFile | null>(null);
  const name = knowledgeBase?.name ?? 'Knowledge base';

  const columns: Column<KnowledgeFile>[] = [
    {
      key: 'name',
      header: 'Entry',
      cell: (f) => (
        <div className="flex min-w-0 gap-2.5">
          {f.type === 'faq' ? <HelpCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-subtle" /> : <FileText aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-fg-subtle" />}
          <div className="min-w-0">
            <p className="font-medium break-words text-fg">{f.name}</p>
            <p className="text-xs text-fg-subtle">
              {TYPE_LABELS[f.type]} · {formatBytes(f.size)}
              {f.pages !== null && ` · ${count(f.pages, 'page')}`}
            </p>
            {f.status === KnowledgeFileStatus.error && f.errorMessage && <p className="mt-1 text-xs font-medium text-danger-fg">{f.errorMessage}</p>}
            <span className="sm:hidden">
              <EntryStatus entry={f} />
            </span>
          </div>
        </div>
      ),
    },
    { key: 'status', header: 'Status', hideOnMobile: true, cell: (f) => <EntryStatus entry={f} /> },
    { key: 'added', header: 'Added', hideOnMobile: true, cell: (f) => <span className="whitespace-nowrap text-fg-muted">{formatDate(f.createdAt)}</span> },
    {
      key: 'actions',
      header: 'Actions',
      className: 'w-0 text-right',
      cell: (f) =>
        edit.allowed ? (
          <div className="flex justify-end gap-1">
            {f.type === 'faq' && (
              <Link to={addFaqLocation(basePath, params, f.id)} className={buttonClasses('ghost', 'sm')} aria-label={`Edit FAQ ${f.name}`}>
                <Pencil aria-hidden="true" />
                <span className="hidden sm:inline">Edit</span>
              </Link>
            )}
            <Button variant="ghost" size="sm" className="text-danger-fg" onClick={() => setToDelete(f)} aria-label={`Delete ${f.name}`}>
              <Trash2 aria-hidden="true" />
              <span className="hidden sm:inline">Delete</span>
            </Button>
          </div>
        ) : null,
    },
  ];

  const addFaq = edit.allowed ? (
    <Link to={addFaqLocation(basePath, params)} className={buttonClasses('secondary')}>
      <Plus aria-hidden="true" />
      Add FAQ
    </Link>
  ) : undefined;

  let body;
  if (files.isPending) body = <SkeletonList label="Loading the files…" rows={3} columns={3} />;
  else if (files.isError) body = <ErrorState error={files.error} onRetry={() => void files.refetch()} />;
  else if (files.data.data.length === 0)
    body = (
      <EmptyState icon={<FileText />} title="No files or FAQs yet">
        {edit.allowed ? 'Drop a document above or add a FAQ: the agents of a campaign using this knowledge base answer from them.' : 'Nothing has been added to this knowledge base yet.'}
      </EmptyState>
    );
  else body = <DataTable caption={`Files and FAQs of ${name}`} columns={columns} rows={files.data.data} rowKey={(f) => f.id} pageInfo={files.data.meta} onPageChange={list.setPage} />;

  return (
    <div className="min-w-0 space-y-6">
      <Card className="p-4 sm:p-5">
        <div className="flex flex-wrap items-start justify-between gap-3">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold break-words text-fg">{name}</h2>
            {knowledgeBase && (
              <p className="text-sm text-fg-muted">
                {count(knowledgeBase.fileCount, 'entry', 'entries')} · created {formatDate(knowledgeBase.createdAt)}
              </p>
            )}
          </div>
          {edit.allowed && (
            <div className="flex flex-wrap gap-2">
              {addFaq}
              {knowledgeBase && (
                <Button variant="secondary" onClick={() => setRenaming(true)}>
                  <Pencil aria-hidden="true" />
                  Rename
                </Button>
              )}
              <Button variant="secondary" className="text-danger-fg" onClick={() => setDeletingBase(true)}>
                <Trash2 aria-hidden="true" />
                Delete
              </Button>
            </div>
          )}
        </div>
        {edit.allowed ? (
          <div className="mt-4">
            <KnowledgeUploader team={team} knowledgeBaseId={knowledgeBaseId} onAdded={(id) => setFollowed((m) => new Map(m).set(id, Date.now()))} />
          </div>
        ) : (
          <div className="mt-4">
            <RoleNotice>{edit.reason}</RoleNotice>
          </div>
        )}
      </Card>

      {showSearch && (
        <Card className="p-4 sm:p-5">
          <KnowledgeSearch organizationId={team.id} target={{ knowledgeBaseId }} label="Search this knowledge base" hint="The passages an agent would be given for these words, best first." />
        </Card>
      )}

      <section aria-label="Files and FAQs" className="space-y-3">
        {body}
      </section>

      {renaming && knowledgeBase && (
        <KnowledgeBaseNameDialog
          open
          onOpenChange={setRenaming}
          title="Rename the knowledge base"
          description="Its files, FAQs and campaigns stay as they are."
          submitLabel="Rename"
          initialName={knowledgeBase.name}
          onSubmit={async (next) => {
            await rename.mutateAsync({ id: knowledgeBaseId, name: next, organizationId: team.id });
            toast.success(`The knowledge base is now called "${next}".`);
          }}
        />
      )}
      <ConfirmDialog
        open={deletingBase}
        onOpenChange={setDeletingBase}
        title={`Delete the knowledge base "${name}"?`}
        description="Its files and FAQs go with it, and a campaign using it is left without an active knowledge base."
        confirmLabel="Delete knowledge base"
        busy={removeBase.isPending}
        onConfirm={() =>
          removeBase.mutate(
            { id: knowledgeBaseId, organizationId: team.id },
            {
              onSuccess: () => {
                toast.success(`The knowledge base "${name}" was deleted.`);
                setDeletingBase(false);
                onDeleted();
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title={`Delete "${toDelete?.name ?? ''}"?`}
        description="Its passages leave the search at once: agents no longer answer from it."
        confirmLabel={toDelete?.type === 'faq' ? 'Delete FAQ' : 'Delete file'}
        busy={removeEntry.isPending}
        onConfirm={() =>
          toDelete &&
          removeEntry.mutate(
            { entry: toDelete },
            {
              onSuccess: () => {
                toast.success(`"${toDelete.name}" was deleted.`);
                setToDelete(null);
                list.afterDelete();
              },
              onError: (error) => toast.error(error),
            },
          )
        }
      />
    </div>
  );
}

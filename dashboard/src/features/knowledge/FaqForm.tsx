import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';

import type { KnowledgeFile, Organization } from '../../api/gen/model';
import { isApiError } from '../../api/mutator';
import { Button, buttonClasses } from '../../components/ui/button';
import { Card } from '../../components/ui/card';
import { Field, Input, Textarea } from '../../components/ui/input';
import { RoleNotice } from '../../components/ui/page-header';
import { SkeletonText } from '../../components/ui/skeleton';
import { EmptyState, ErrorState, errorMessage } from '../../components/ui/states';
import { toast } from '../../components/ui/toast-store';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { can } from '../../lib/roles';
import { knowledgeState, listLocation } from './params';
import { createFaqMutationOptions, knowledgeEntryQueryOptions, updateFaqMutationOptions } from './queries';

/**
 * The add-faq route (`…/knowledge-base/add-faq?knowledgeBaseId=…`): a FAQ is a named block of
 * questions and answers, searchable at once. With `faq-id` it edits that FAQ.
 */
export function FaqPage({ team, basePath }: { team: Organization; basePath: string }) {
  const [params] = useSearchParams();
  const { knowledgeBaseId, faqId } = knowledgeState(params);
  const back = listLocation(basePath, params);
  const entry = useQuery({ ...knowledgeEntryQueryOptions(team.id, faqId ?? ''), enabled: faqId !== null });
  const edit = can(team.myRole, 'editCalling');

  let body;
  if (!knowledgeBaseId && !faqId) body = <EmptyState title="Choose a knowledge base first">A FAQ belongs to a knowledge base: pick one, then Add FAQ.</EmptyState>;
  else if (!edit.allowed) body = <RoleNotice>{edit.reason}</RoleNotice>;
  else if (faqId && entry.isPending) body = <SkeletonText label="Loading the FAQ…" lines={4} />;
  else if (faqId && entry.isError) body = <ErrorState error={entry.error} onRetry={() => void entry.refetch()} />;
  else if (entry.data && entry.data.type !== 'faq') body = <ErrorState error="This entry is an uploaded file, not a FAQ: only FAQs are edited here." />;
  else body = <FaqForm key={entry.data?.id ?? 'new'} team={team} knowledgeBaseId={entry.data?.knowledgeBaseId ?? knowledgeBaseId ?? ''} faq={entry.data} back={back} />;

  return (
    <div className="space-y-4">
      <Link to={back} className={buttonClasses('ghost', 'sm')}>
        <ArrowLeft aria-hidden="true" />
        Back to the knowledge base
      </Link>
      <Card className="p-4 sm:p-6">
        <h2 className="text-lg font-semibold text-fg">{faqId ? 'Edit FAQ' : 'Add FAQ'}</h2>
        <p className="mb-4 text-sm text-fg-muted">Write questions and their answers as plain text. Agents find them by the words they hold, like the passages of a file.</p>
        {body}
      </Card>
    </div>
  );
}

function FaqForm({ team, knowledgeBaseId, faq, back }: { team: Organization; knowledgeBaseId: string; faq: KnowledgeFile | undefined; back: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const create = useMutation(createFaqMutationOptions(queryClient, team.id));
  const update = useMutation(updateFaqMutationOptions(queryClient, team.id));
  const [name, setName] = useState(faq?.faqName ?? faq?.name ?? '');
  const [text, setText] = useState(faq?.faq ?? '');
  const [errors, setErrors] = useState<{ name?: string | undefined; faq?: string | undefined }>({});
  const [failure, setFailure] = useState<string | null>(null);
  const busy = create.isPending || update.isPending;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const found: typeof errors = {};
    if (!name.trim()) found.name = 'Give the FAQ a name.';
    if (!text.trim()) found.faq = 'Write at least one question and its answer.';
    setErrors(found);
    if (Object.keys(found).length > 0) return focusFirstInvalid(form);
    setFailure(null);
    try {
      const body = { name: name.trim(), faq: text.trim() };
      if (faq) await update.mutateAsync({ id: faq.id, body });
      else await create.mutateAsync({ knowledgeBaseId, ...body });
      toast.success(faq ? `The FAQ "${body.name}" was saved.` : `The FAQ "${body.name}" was added.`);
      void navigate(back);
    } catch (error) {
      if (isApiError(error) && error.errors.length > 0) setErrors({ name: error.fieldError('name'), faq: error.fieldError('faq') });
      else setFailure(errorMessage(error));
    }
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
      <Field label="FAQ name" error={errors.name} description="Shown in the list, e.g. “Delivery questions”.">
        {(ids) => <Input {...ids} value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <Field label="Questions and answers" error={errors.faq}>
        {(ids) => <Textarea {...ids} rows={10} value={text} maxLength={20000} placeholder={'Q: Do you deliver on Sundays?\nA: No, Monday to Saturday only.'} onChange={(e) => setText(e.target.value)} />}
      </Field>
      {failure && (
        <p role="alert" className="rounded-md border border-danger-line bg-danger-subtle px-3 py-2 text-sm text-danger-fg">
          {failure}
        </p>
      )}
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Link to={back} className={buttonClasses('secondary')}>
          Cancel
        </Link>
        <Button type="submit" busy={busy} busyLabel="Saving…">
          {faq ? 'Save FAQ' : 'Add FAQ'}
        </Button>
      </div>
    </form>
  );
}

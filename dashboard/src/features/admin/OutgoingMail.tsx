import { useState, type FormEvent } from 'react';
import { Mail } from 'lucide-react';
import { useSearchParams } from 'react-router';

import type { OutboxMessage, OutboxMessageKind, OutboxMessageStatus } from '../../api/gen/model';
import { Badge, type BadgeTone } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Field, Input } from '../../components/ui/input';
import { SkeletonList } from '../../components/ui/skeleton';
import { EmptyState, ErrorState } from '../../components/ui/states';
import { DataTable, type Column } from '../../components/ui/table';
import { copyText } from '../../lib/clipboard';
import { formatDateTime } from '../../lib/dates';
import { emailError } from '../../lib/email';
import { focusFirstInvalid } from '../../lib/focusFirstInvalid';
import { usePagedList } from '../../lib/usePagedList';
import { useMailDelivery } from '../system/mail';
import { adminMailQueryOptions } from './queries';

const KIND_LABELS: Record<OutboxMessageKind, string> = {
  'confirm-email': 'E-mail confirmation',
  'password-reset': 'Password reset',
  invitation: 'Invitation',
  'ownership-transfer': 'Ownership transfer',
  'verification-request': 'Verification request',
  'verification-level': 'Verification level',
};

const STATUSES: Record<OutboxMessageStatus, { tone: BadgeTone; label: string; meaning: string }> = {
  queued: { tone: 'neutral', label: 'Queued', meaning: 'Waiting for the sending job.' },
  sent: { tone: 'success', label: 'Sent', meaning: 'The e-mail relay accepted it.' },
  failed: { tone: 'declined', label: 'Failed', meaning: 'Delivery failed; it is tried again later.' },
  kept: { tone: 'info', label: 'Kept', meaning: "No e-mail relay: it stays here and its link is in the server's log." },
};

function MailStatus({ message }: { message: OutboxMessage }) {
  const status = STATUSES[message.status];
  const title = message.error ? `${status.meaning} ${message.error}` : status.meaning;
  return (
    <span title={title}>
      <Badge tone={status.tone}>{status.label}</Badge>
    </span>
  );
}

/**
 * The server's outbox for site admins: every e-mail it wrote, newest first, with the link each
 * one carries. On a server without an e-mail relay this is where people's links are found, to
 * pass on; the links are copied, never opened here, since opening one would act as the admin.
 */
export function OutgoingMail({ headingId }: { headingId: string }) {
  const delivery = useMailDelivery();
  const [params, setParams] = useSearchParams();
  const recipient = params.get('recipient') ?? '';
  const [draft, setDraft] = useState(recipient);
  const [draftError, setDraftError] = useState<string | undefined>();
  const mail = usePagedList((page) => adminMailQueryOptions(recipient, page), { param: 'mailPage' });

  function filter(next: string) {
    setParams((current) => {
      const updated = new URLSearchParams(current);
      if (next) updated.set('recipient', next);
      else updated.delete('recipient');
      updated.delete('mailPage');
      return updated;
    });
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const value = draft.trim();
    const problem = value ? emailError(value) : undefined;
    setDraftError(problem);
    if (problem) return focusFirstInvalid(event.currentTarget as HTMLFormElement);
    filter(value);
  }

  const columns: Column<OutboxMessage>[] = [
    { key: 'created', header: 'Created', cell: (m) => <span className="text-fg-muted sm:whitespace-nowrap">{formatDateTime(m.createdAt)}</span> },
    {
      key: 'to',
      header: 'To',
      cell: (m) => (
        <div className="min-w-0">
          <p className="font-medium break-all text-fg">{m.recipient}</p>
          <p className="text-xs text-fg-subtle">{m.subject}</p>
          {/* Kind and status have their own columns on wider screens. */}
          <p className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-fg-muted sm:hidden">
            {KIND_LABELS[m.kind]} <MailStatus message={m} />
          </p>
        </div>
      ),
    },
    { key: 'kind', header: 'Kind', hideOnMobile: true, cell: (m) => <span className="whitespace-nowrap text-fg-soft">{KIND_LABELS[m.kind]}</span> },
    { key: 'status', header: 'Status', hideOnMobile: true, cell: (m) => <MailStatus message={m} /> },
    {
      key: 'link',
      header: 'Link',
      cell: (m) =>
        m.link ? (
          <div className="flex items-center gap-2">
            <code className="hidden max-w-[16rem] truncate rounded bg-muted px-1.5 py-0.5 font-mono text-xs text-fg-soft select-all md:block" title={m.link} data-testid="mail-link">
              {m.link}
            </code>
            <Button variant="secondary" size="sm" aria-label={`Copy the ${KIND_LABELS[m.kind].toLowerCase()} link for ${m.recipient}`} onClick={() => void copyText(m.link!, 'The link is on your clipboard.')}>
              Copy
            </Button>
          </div>
        ) : (
          <span className="text-fg-subtle">None</span>
        ),
    },
  ];

  const { query } = mail;
  let content;
  if (query.isPending) content = <SkeletonList label="Loading the outgoing mail…" columns={4} />;
  else if (query.isError) content = <ErrorState error={query.error} onRetry={() => void mail.refetch()} />;
  else if (query.data.data.length === 0)
    content = <EmptyState icon={<Mail />} title={recipient ? `No e-mail to ${recipient}` : 'No e-mail yet'}>{recipient ? 'Try another address, or clear the filter.' : 'Confirmations, invitations and password resets show here as the server writes them.'}</EmptyState>;
  else
    content = (
      <div className={mail.stale ? 'opacity-60' : undefined} aria-busy={mail.stale}>
        <DataTable caption={recipient ? `Outgoing mail to ${recipient}` : 'Outgoing mail'} columns={columns} rows={query.data.data} rowKey={(m) => m.id} pageInfo={query.data.meta} onPageChange={mail.setPage} />
      </div>
    );

  return (
    <section aria-labelledby={headingId} className="mt-10">
      <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id={headingId} className="text-lg font-semibold text-fg">
            Outgoing mail
          </h2>
          <p className="mt-1 text-sm text-fg-muted">
            {delivery === 'outbox'
              ? "This server has no e-mail relay configured: nothing here has left the server. Copy a link and pass it on to the person it is for; the links are also in the server's log."
              : 'Every e-mail the server wrote, newest first, with the link it carries.'}
          </p>
        </div>
      </div>
      <form onSubmit={submit} role="search" aria-label="Outgoing mail" className="mb-4 flex flex-wrap items-start gap-2" noValidate>
        <Field label="Recipient" className="w-full max-w-sm" error={draftError}>
          {(ids) => <Input {...ids} type="email" placeholder="name@example.com" value={draft} onChange={(e) => setDraft(e.target.value)} autoComplete="off" />}
        </Field>
        <div className="flex gap-2 sm:mt-6.5">
          <Button type="submit" variant="secondary">
            Filter
          </Button>
          {recipient && (
            <Button
              variant="ghost"
              onClick={() => {
                setDraft('');
                setDraftError(undefined);
                filter('');
              }}
            >
              Show all
            </Button>
          )}
        </div>
      </form>
      {content}
    </section>
  );
}

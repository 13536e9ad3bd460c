import { useQuery } from '@tanstack/react-query';
import { Search } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';

import type { KnowledgePassage } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Button } from '../../components/ui/button';
import { Input } from '../../components/ui/input';
import { SkeletonText } from '../../components/ui/skeleton';
import { ErrorState } from '../../components/ui/states';
import { knowledgeSearchQueryOptions } from './queries';
import { snippetParts } from './snippet';

/** The found words in bold as the server marks them, rendered as text (never as HTML). */
export function Snippet({ text }: { text: string }) {
  return (
    <>
      {snippetParts(text).map((part, i) =>
        part.hit ? (
          <mark key={i} className="rounded-sm bg-warning-subtle px-0.5 font-semibold text-fg">
            {part.text}
          </mark>
        ) : (
          <span key={i}>{part.text}</span>
        ),
      )}
    </>
  );
}

/** A search box over one knowledge base, or a campaign's active one: the passages an agent would get. */
export function KnowledgeSearch({ organizationId, target, label, hint }: { organizationId: string; target: { knowledgeBaseId: string } | { campaignId: string }; label: string; hint: string }) {
  const id = useId();
  const [draft, setDraft] = useState('');
  const [q, setQ] = useState('');
  const results = useQuery({ ...knowledgeSearchQueryOptions(organizationId, target, q), enabled: q !== '' });

  function submit(event: FormEvent) {
    event.preventDefault();
    setQ(draft.trim());
  }

  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3">
      <div>
        <h3 id={`${id}-title`} className="font-semibold text-fg">
          {label}
        </h3>
        <p className="text-sm text-fg-muted">{hint}</p>
      </div>
      <form role="search" aria-label={label} onSubmit={submit} className="flex gap-2">
        <Input type="search" aria-label="Search words" placeholder="weekend delivery hours" value={draft} maxLength={500} onChange={(e) => setDraft(e.target.value)} />
        <Button type="submit" variant="secondary" disabled={draft.trim() === ''}>
          <Search aria-hidden="true" />
          Search
        </Button>
      </form>
      {q !== '' && results.isPending && <SkeletonText label="Searching…" lines={3} />}
      {results.isError && <ErrorState error={results.error} onRetry={() => void results.refetch()} />}
      {results.data &&
        (results.data.length === 0 ? (
          <p className="text-sm text-fg-muted">Nothing matches “{q}”. Files still parsing or in error have no passages yet.</p>
        ) : (
          <ol aria-label={`Passages found for ${q}`} className="space-y-2">
            {results.data.map((p) => (
              <PassageRow key={`${p.fileId}-${p.page ?? 0}-${p.rank}-${p.snippet}`} passage={p} />
            ))}
          </ol>
        ))}
    </section>
  );
}

function PassageRow({ passage: p }: { passage: KnowledgePassage }) {
  return (
    <li className="rounded-lg border border-line bg-surface px-3 py-2.5 text-sm">
      <div className="flex flex-wrap items-center gap-2">
        <span className="min-w-0 truncate font-medium text-fg">{p.name}</span>
        {p.type === 'faq' ? <Badge tone="info">FAQ</Badge> : <Badge>{p.type.toUpperCase()}</Badge>}
        {p.page !== null && <span className="text-xs text-fg-subtle">Page {p.page}</span>}
      </div>
      <p className="mt-1 text-fg-muted">
        <Snippet text={p.snippet} />
      </p>
    </li>
  );
}

import { Library } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';

import type { KnowledgeBase, PageMeta } from '../../api/gen/model';
import { Badge } from '../../components/ui/badge';
import { Pagination } from '../../components/ui/table';
import { cn } from '../../lib/cn';
import { withKnowledgeBase } from './params';
import { count } from '../../lib/plural';

/** Knowledge bases to pick from (20 a page); the chosen one is `knowledgeBaseId` in the URL. */
export function KnowledgeBaseList({ label, bases, meta, selectedId, onPageChange, showActive = false }: { label: string; bases: readonly KnowledgeBase[]; meta: PageMeta; selectedId: string | null; onPageChange: (page: number) => void; showActive?: boolean }) {
  const [params] = useSearchParams();
  return (
    <nav aria-label={label}>
      <ul className="space-y-1">
        {bases.map((kb) => {
          const selected = kb.id === selectedId;
          return (
            <li key={kb.id}>
              <Link
                to={`?${withKnowledgeBase(params, kb.id).toString()}`}
                aria-current={selected ? 'true' : undefined}
                className={cn('flex items-center gap-2.5 rounded-lg border px-3 py-2 text-sm transition-colors', selected ? 'border-accent-line bg-accent-subtle' : 'border-transparent hover:bg-muted')}
              >
                <Library aria-hidden="true" className="size-4 shrink-0 text-fg-subtle" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-fg">{kb.name}</span>
                  <span className="block text-xs text-fg-subtle">
                    {count(kb.fileCount, 'entry', 'entries')}
                  </span>
                </span>
                {showActive && kb.active && <Badge tone="success">Active</Badge>}
              </Link>
            </li>
          );
        })}
      </ul>
      {meta.totalPages > 1 && <Pagination info={meta} onPageChange={onPageChange} />}
    </nav>
  );
}

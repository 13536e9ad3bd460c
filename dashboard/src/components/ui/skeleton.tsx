import { cn } from '../../lib/cn';

/** A grey block where content will be; decorative (the surrounding status says what loads). */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={cn('block animate-shimmer rounded-md bg-muted', className)} />;
}

/** A list or table that is loading: rows of placeholders, announced once to screen readers. */
export function SkeletonList({ label, rows = 4, columns = 3 }: { label: string; rows?: number; columns?: number }) {
  return (
    <div role="status" aria-live="polite" className="overflow-hidden rounded-xl border border-line bg-surface shadow-card" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      <div className="border-b border-line bg-subtle px-4 py-3">
        <Skeleton className="h-3 w-32" />
      </div>
      <ul className="divide-y divide-line-soft">
        {Array.from({ length: rows }, (_, row) => (
          <li key={row} className="flex items-center gap-4 px-4 py-3.5">
            <Skeleton className="size-8 shrink-0 rounded-full" />
            {Array.from({ length: columns }, (_, column) => (
              <Skeleton key={column} className={cn('h-3.5', column === 0 ? 'w-40' : 'hidden w-24 sm:block', column === columns - 1 && 'ml-auto')} />
            ))}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** A few lines of text that are loading. */
export function SkeletonText({ label, lines = 3 }: { label: string; lines?: number }) {
  return (
    <div role="status" aria-live="polite" className="space-y-2.5 py-2" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      {Array.from({ length: lines }, (_, line) => (
        <Skeleton key={line} className={cn('h-3.5', line === lines - 1 ? 'w-2/3' : 'w-full')} />
      ))}
    </div>
  );
}

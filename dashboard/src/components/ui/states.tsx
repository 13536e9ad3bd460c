import { CircleAlert, RotateCw } from 'lucide-react';
import type { ReactNode } from 'react';

import { Button } from './button';
import { Skeleton } from './skeleton';

/** An action under way (confirming a link, say), said in words; lists use SkeletonList instead. */
export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" className="flex items-center gap-2 px-4 py-10 text-sm text-fg-subtle">
      <span aria-hidden="true" className="size-4 animate-spin rounded-full border-2 border-line-strong border-t-accent motion-reduce:animate-none" />
      {label}
    </div>
  );
}

/** A page whose code or data is on its way: the shape of a page header and a card. */
export function PageSkeleton({ label = 'Loading…' }: { label?: string }) {
  return (
    <div role="status" aria-live="polite" className="mx-auto w-full max-w-5xl space-y-6" data-testid="skeleton">
      <span className="sr-only">{label}</span>
      <div className="space-y-2">
        <Skeleton className="h-7 w-48" />
        <Skeleton className="h-4 w-80 max-w-full" />
      </div>
      <div className="rounded-xl border border-line bg-surface p-5 shadow-card">
        <div className="space-y-3">
          <Skeleton className="h-4 w-1/3" />
          <Skeleton className="h-3.5 w-full" />
          <Skeleton className="h-3.5 w-5/6" />
          <Skeleton className="h-3.5 w-2/3" />
        </div>
      </div>
    </div>
  );
}

interface EmptyStateProps {
  title: string;
  /** An icon that says what would be here (no illustration). */
  icon?: ReactNode;
  children?: ReactNode;
  /** The one thing to do next. */
  action?: ReactNode;
}

/** Nothing here yet: what would be here, why it is empty, and the one action that fills it. */
export function EmptyState({ title, icon, children, action }: EmptyStateProps) {
  return (
    <div className="flex flex-col items-center rounded-xl border border-dashed border-line-strong bg-surface px-6 py-12 text-center">
      {icon && (
        <span aria-hidden="true" className="mb-3 flex size-11 items-center justify-center rounded-full bg-accent-subtle text-accent-fg [&_svg]:size-5">
          {icon}
        </span>
      )}
      <p className="font-semibold text-fg">{title}</p>
      {children && <div className="mt-1 max-w-md text-sm text-fg-muted">{children}</div>}
      {action && <div className="mt-5 flex justify-center">{action}</div>}
    </div>
  );
}

export function ErrorState({ title = 'Uh oh! Something went wrong.', error, onRetry }: { title?: string; error: unknown; onRetry?: () => void }) {
  return (
    <div role="alert" className="flex gap-3 rounded-xl border border-danger-line bg-danger-subtle px-5 py-4 text-sm">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-danger-fg" />
      <div className="min-w-0">
        <p className="font-medium text-danger-fg">{title}</p>
        <p className="mt-1 text-danger-fg">{errorMessage(error)}</p>
        {onRetry && (
          <Button variant="secondary" size="sm" className="mt-3" onClick={onRetry}>
            <RotateCw aria-hidden="true" />
            Try again
          </Button>
        )}
      </div>
    </div>
  );
}

/** The plain-words message of any failure: the server's detail for an ApiError. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  if (typeof error === 'string' && error) return error;
  return 'Something unexpected happened. Try again.';
}

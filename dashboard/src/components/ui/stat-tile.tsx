import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { cn } from '../../lib/cn';
import { Skeleton } from './skeleton';

interface StatTileProps {
  label: string;
  /** The figure; undefined while it loads. Never a placeholder number. */
  value: ReactNode | undefined;
  icon: ReactNode;
  /** A line under the figure: what it counts, or why there is none yet. */
  hint?: ReactNode;
  /** Where the figure's detail lives. */
  to?: string;
  testId?: string;
}

/** One figure at a glance: a label, the number and a hint, optionally a link to its screen. */
export function StatTile({ label, value, icon, hint, to, testId }: StatTileProps) {
  const body = (
    <>
      <div className="flex items-center justify-between gap-2">
        <p className="text-sm font-medium text-fg-muted">{label}</p>
        <span aria-hidden="true" className="flex size-8 items-center justify-center rounded-lg bg-muted text-fg-subtle [&_svg]:size-4">
          {icon}
        </span>
      </div>
      <div className="mt-2 text-2xl font-semibold tracking-tight text-fg tabular-nums">{value === undefined ? <Skeleton className="h-8 w-14" /> : value}</div>
      {hint && <p className="mt-1 text-xs text-fg-subtle">{hint}</p>}
    </>
  );
  const classes = 'block rounded-xl border border-line bg-surface p-4 shadow-card';
  return to ? (
    <Link to={to} data-testid={testId} className={cn(classes, 'transition-colors hover:border-accent-line hover:bg-subtle')}>
      {body}
    </Link>
  ) : (
    <div data-testid={testId} className={classes}>
      {body}
    </div>
  );
}

import { CircleAlert, CircleCheck, X } from 'lucide-react';
import type { ReactNode } from 'react';

import { cn } from '../../lib/cn';

/** A line across the page: what happened, in plain words, until it is dismissed. */
export function Notice({ tone, title, children, onDismiss }: { tone: 'success' | 'danger' | 'warning'; title: string; children?: ReactNode; onDismiss?: () => void }) {
  const Icon = tone === 'success' ? CircleCheck : CircleAlert;
  const colours = { success: 'border-success/30 bg-success-subtle text-success-fg', danger: 'border-danger-line bg-danger-subtle text-danger-fg', warning: 'border-warning/30 bg-warning-subtle text-warning-fg' }[tone];
  return (
    <div role={tone === 'success' ? 'status' : 'alert'} aria-label={title} className={cn('mb-6 flex gap-3 rounded-xl border px-5 py-4 text-sm', colours)}>
      <Icon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="min-w-0 flex-1">
        <p className="font-medium">{title}</p>
        {children && <div className="mt-1">{children}</div>}
      </div>
      {onDismiss && (
        <button type="button" aria-label="Dismiss" className="shrink-0 rounded-sm opacity-80 hover:opacity-100" onClick={onDismiss}>
          <X aria-hidden="true" className="size-4" />
        </button>
      )}
    </div>
  );
}

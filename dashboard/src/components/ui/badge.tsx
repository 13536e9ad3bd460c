import type { ReactNode } from 'react';

import { cn } from '../../lib/cn';

const TONES = {
  success: 'bg-success-subtle text-success-fg ring-success/20',
  neutral: 'bg-muted text-fg-soft ring-fg-subtle/20',
  declined: 'bg-danger-subtle text-danger-fg ring-danger/20',
  info: 'bg-accent-subtle text-accent-fg ring-accent/20',
  warning: 'bg-warning-subtle text-warning-fg ring-warning/20',
} as const;

export type BadgeTone = keyof typeof TONES;

export function Badge({ tone = 'neutral', children, className }: { tone?: BadgeTone; children: ReactNode; className?: string }) {
  return (
    <span className={cn('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset', TONES[tone], className)}>
      {children}
    </span>
  );
}

/**
 * How a status reads as a badge (spec section 4): pending and in-progress use the success style,
 * done and success read "Completed", rejected, declined and cancelled read "Declined".
 */
export function statusBadge(status: string): { tone: BadgeTone; label: string } {
  const key = status.trim().toLowerCase().replace(/[\s_]+/g, '-');
  switch (key) {
    case 'pending':
    case 'in-progress':
      return { tone: 'success', label: key === 'pending' ? 'Pending' : 'In progress' };
    case 'done':
    case 'success':
    case 'completed':
      return { tone: 'success', label: 'Completed' };
    case 'rejected':
    case 'declined':
    case 'cancelled':
    case 'canceled':
      return { tone: 'declined', label: 'Declined' };
    default:
      return { tone: 'neutral', label: status ? status.charAt(0).toUpperCase() + status.slice(1).replace(/[-_]/g, ' ') : 'Unknown' };
  }
}

export function StatusBadge({ status }: { status: string }) {
  const { tone, label } = statusBadge(status);
  return <Badge tone={tone}>{label}</Badge>;
}

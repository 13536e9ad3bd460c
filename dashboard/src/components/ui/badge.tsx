import type { ReactNode } from 'react';

import { cn } from '../../lib/cn';

const TONES = {
  success: 'bg-emerald-50 text-emerald-800 ring-emerald-600/20',
  neutral: 'bg-zinc-100 text-zinc-700 ring-zinc-500/20',
  declined: 'bg-red-50 text-red-800 ring-red-600/20',
  info: 'bg-brand-50 text-brand-800 ring-brand-600/20',
  warning: 'bg-amber-50 text-amber-800 ring-amber-600/20',
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

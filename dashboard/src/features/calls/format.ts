// How calls read: status words and tones, durations, offsets, costs and day ranges.

import type { CallLogStatus } from '../../api/gen/model';
import type { BadgeTone } from '../../components/ui/badge';

export const CALL_STATUS: Record<CallLogStatus, { label: string; tone: BadgeTone }> = {
  queued: { label: 'Queued', tone: 'neutral' },
  ringing: { label: 'Ringing', tone: 'info' },
  'in-progress': { label: 'In call', tone: 'success' },
  completed: { label: 'Completed', tone: 'success' },
  voicemail: { label: 'Voicemail', tone: 'warning' },
  busy: { label: 'Busy', tone: 'warning' },
  'no-answer': { label: 'No answer', tone: 'warning' },
  failed: { label: 'Failed', tone: 'declined' },
  cancelled: { label: 'Cancelled', tone: 'declined' },
};

export function callStatus(status: string): { label: string; tone: BadgeTone } {
  return CALL_STATUS[status as CallLogStatus] ?? { label: status, tone: 'neutral' };
}

/** 184 → "3:04"; 3700 → "1:01:40". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

/** US dollars with cents ("$0.81"); small costs keep a third decimal ("$0.005"). */
export function formatCost(usd: number): string {
  const digits = usd > 0 && usd < 0.01 ? 3 : 2;
  return usd.toLocaleString('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: digits });
}

/** What the simulated badge says when hovered: why the call cost nothing. */
export const SIMULATED_HINT = "Placed through Betty's call simulator: nobody was dialled, and simulated calls are free.";

/** YYYY-MM-DD of a date in UTC (the statistics count UTC days). */
export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** The last `days` days ending today (UTC), as the statistics default (7). */
export function lastDays(days: number, today = new Date()): { startDate: string; endDate: string } {
  const end = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate()));
  const start = new Date(end.getTime() - (days - 1) * 86_400_000);
  return { startDate: isoDay(start), endDate: isoDay(end) };
}

/** Why a chosen range cannot be asked for, in words; '' when it can (the contract: start ≤ end, at most 366 days). */
export function rangeProblem(startDate: string, endDate: string): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(startDate) || !/^\d{4}-\d{2}-\d{2}$/.test(endDate)) return 'Choose both dates.';
  if (startDate > endDate) return 'The first day must not be after the last.';
  const days = (Date.parse(`${endDate}T00:00:00Z`) - Date.parse(`${startDate}T00:00:00Z`)) / 86_400_000 + 1;
  if (days > 366) return 'Choose at most 366 days.';
  return '';
}

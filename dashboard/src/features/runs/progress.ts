// How a job's progress reads: the counters the server sends, in the order a person follows a
// run (waiting → being called → done), each with its label. JobProgress may carry more counters
// than this dashboard knows (the dialer adds some); every whole-number counter is shown, the
// known ones first, so none is hidden.

import type { Job, JobProgress, JobStatus } from '../../api/gen/model';
import type { BadgeTone } from '../../components/ui/badge';

const KNOWN: readonly { key: string; label: string; hint: string }[] = [
  { key: 'total', label: 'Contacts', hint: 'To handle in this run' },
  { key: 'queued', label: 'Queued', hint: 'Waiting for their turn or their calling window' },
  { key: 'dialling', label: 'Dialling', hint: 'Ringing now' },
  { key: 'dialing', label: 'Dialling', hint: 'Ringing now' },
  { key: 'inCall', label: 'In call', hint: 'Talking to the agent now' },
  { key: 'completed', label: 'Completed', hint: 'Calls that went through' },
  { key: 'failed', label: 'Failed', hint: 'No answer, busy or voicemail after the last attempt' },
  { key: 'suppressed', label: 'Suppressed', hint: 'On the do-not-call list or over a cap: never dialled' },
  { key: 'refused', label: 'Refused', hint: 'A kind of number this run may not call (premium-rate, toll-free…): never dialled; each contact says why' },
  { key: 'remaining', label: 'Remaining', hint: 'Not finished yet' },
  { key: 'pending', label: 'Remaining', hint: 'Not finished yet' },
];

export interface Counter {
  key: string;
  label: string;
  hint: string;
  value: number;
}

function humanize(key: string): string {
  const words = key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[-_]/g, ' ').toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** The counters to show, known ones in order, then any other whole-number field (not `percent`). */
export function progressCounters(progress: JobProgress): Counter[] {
  const values = progress as unknown as Record<string, unknown>;
  const out: Counter[] = [];
  const seenLabels = new Set<string>();
  for (const k of KNOWN) {
    const v = values[k.key];
    if (typeof v === 'number' && !seenLabels.has(k.label)) {
      // `pending` is shown only when the server sends no `remaining`.
      out.push({ key: k.key, label: k.label, hint: k.hint, value: v });
      seenLabels.add(k.label);
    }
  }
  const known = new Set(KNOWN.map((k) => k.key));
  for (const [key, v] of Object.entries(values)) {
    if (known.has(key) || key === 'percent' || typeof v !== 'number' || !Number.isInteger(v)) continue;
    out.push({ key, label: humanize(key), hint: '', value: v });
  }
  return out;
}

export const JOB_STATUS: Record<JobStatus, { label: string; tone: BadgeTone }> = {
  'in-progress': { label: 'In progress', tone: 'success' },
  success: { label: 'Completed', tone: 'success' },
  error: { label: 'Error', tone: 'declined' },
  cancelled: { label: 'Cancelled', tone: 'declined' },
};

export function jobStatus(job: Pick<Job, 'status'>): { label: string; tone: BadgeTone } {
  return JOB_STATUS[job.status] ?? { label: job.status, tone: 'neutral' };
}

/** "42%": the share handled; the server's figure, else computed. */
export function percentDone(progress: JobProgress): number {
  if (typeof progress.percent === 'number') return Math.max(0, Math.min(100, progress.percent));
  return progress.total === 0 ? 100 : Math.floor(((progress.completed + progress.failed) * 100) / progress.total);
}

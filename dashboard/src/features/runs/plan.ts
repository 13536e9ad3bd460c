// What a run will do, for the confirmation before it starts: how many contacts will be called,
// when (the calling window) and within which caps, read from the campaign's settings (or the
// defaults a workflow outside a campaign follows) and the Contacts node's list.

import type { CampaignSettings, CampaignWeekday, Contact, PageMeta, Workflow } from '../../api/gen/model';

/** The settings a workflow outside a campaign runs with (the contract's defaults). */
export const DEFAULT_RUN_SETTINGS: CampaignSettings = {
  maxConcurrentCalls: 5,
  callWindow: { start: '09:00', end: '17:00', days: ['mon', 'tue', 'wed', 'thu', 'fri'] },
  timezone: 'UTC',
  retryAttempts: 2,
  retryDelayMinutes: 60,
  voicemailAction: 'hang-up',
  voicemailMessage: null,
  recordCalls: true,
  allowedNumberTypes: [],
  maxCallDurationMinutes: 30,
};

const DAY_NAMES: Record<CampaignWeekday, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const ORDER: CampaignWeekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** "Mon–Fri", "Mon, Wed, Fri", "Every day". */
export function formatDays(days: readonly CampaignWeekday[]): string {
  const sorted = ORDER.filter((d) => days.includes(d));
  if (sorted.length === 7) return 'Every day';
  const idx = sorted.map((d) => ORDER.indexOf(d));
  const consecutive = idx.length > 2 && idx.every((v, i) => i === 0 || v === idx[i - 1]! + 1);
  if (consecutive) return `${DAY_NAMES[sorted[0]!]}–${DAY_NAMES[sorted.at(-1)!]}`;
  return sorted.map((d) => DAY_NAMES[d]).join(', ');
}

/** "09:00–17:00, Mon–Fri (America/New_York)". */
export function formatWindow(settings: CampaignSettings): string {
  return `${settings.callWindow.start}–${settings.callWindow.end}, ${formatDays(settings.callWindow.days)} (${settings.timezone})`;
}

export function formatRetries(settings: CampaignSettings): string {
  if (settings.retryAttempts === 0) return 'No retries: each contact is called once';
  const times = settings.retryAttempts === 1 ? '1 retry' : `${settings.retryAttempts} retries`;
  return `${times}, ${settings.retryDelayMinutes} minutes apart, for busy, no answer or voicemail`;
}

/** The workflow's Contacts node, if it has one. */
export function contactsNode(workflow: Pick<Workflow, 'nodes'>): { id: string; source: string } | null {
  const node = workflow.nodes?.find((n) => n.type === 'contacts');
  if (!node) return null;
  const data = (node.data ?? {}) as Record<string, unknown>;
  const source = data['contactsSource'] ?? data['contacts_source'];
  return { id: node.id, source: typeof source === 'string' ? source : '' };
}

export interface ContactCount {
  /** Contacts that will be called (status pending); when `exact` is false, at most this many. */
  toCall: number;
  total: number;
  /** True when every contact was counted (the list fits one page). */
  exact: boolean;
}

/** Counts the contacts a run calls: those still `pending` (contacts already called are not called again). */
export function countContacts(rows: readonly Contact[], meta: Pick<PageMeta, 'totalSize' | 'totalPages'>): ContactCount {
  const exact = meta.totalPages <= 1;
  if (!exact) return { toCall: meta.totalSize, total: meta.totalSize, exact };
  const toCall = rows.filter((r) => r.betty_metadata?.status === 'pending').length;
  return { toCall, total: meta.totalSize, exact };
}

export function formatCount(count: ContactCount): string {
  const noun = (n: number) => (n === 1 ? '1 contact' : `${n.toLocaleString('en-US')} contacts`);
  if (!count.exact) return `Up to ${noun(count.toCall)}`;
  return noun(count.toCall);
}

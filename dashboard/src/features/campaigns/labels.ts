import type { CallDirection, CampaignNumberType, CampaignPriority, CampaignWeekday } from '../../api/gen/model';
import { CampaignPurpose } from '../../api/gen/model';

export const DIRECTION_LABELS: Record<CallDirection, string> = { inbound: 'Inbound', outbound: 'Outbound' };
export const PRIORITY_LABELS: Record<CampaignPriority, string> = { urgent: 'Urgent', high: 'High', medium: 'Medium', low: 'Low' };
export const PURPOSES = Object.values(CampaignPurpose);
export const WEEKDAYS: { value: CampaignWeekday; label: string; short: string }[] = [
  { value: 'mon', label: 'Monday', short: 'Mon' },
  { value: 'tue', label: 'Tuesday', short: 'Tue' },
  { value: 'wed', label: 'Wednesday', short: 'Wed' },
  { value: 'thu', label: 'Thursday', short: 'Thu' },
  { value: 'fri', label: 'Friday', short: 'Fri' },
  { value: 'sat', label: 'Saturday', short: 'Sat' },
  { value: 'sun', label: 'Sunday', short: 'Sun' },
];

/** The kinds of numbers a campaign may call beyond landlines and mobiles, in the order shown. */
export const NUMBER_TYPES: { value: CampaignNumberType; label: string; description: string }[] = [
  { value: 'toll-free', label: 'Toll-free', description: 'Freephone numbers such as 800 or 0800; businesses, not people, and billed abroad.' },
  { value: 'premium-rate', label: 'Premium-rate', description: 'Such as US 900 or UK 09: each minute can cost several dollars.' },
  { value: 'shared-cost', label: 'Shared-cost', description: 'Such as UK 084 or French 08: billed above a landline.' },
  { value: 'voip', label: 'Internet (VoIP)', description: 'Internet telephony ranges such as UK 056.' },
  { value: 'personal-number', label: 'Personal forwarding', description: 'Follow-me numbers such as UK 070, often billed at premium rates.' },
  { value: 'uan', label: 'Company-wide (UAN)', description: 'Universal access numbers of businesses.' },
  { value: 'voicemail', label: 'Voicemail access', description: 'Numbers that reach a voicemail system.' },
  { value: 'pager', label: 'Pager', description: 'Paging services.' },
  { value: 'international-network', label: 'Satellite and international networks', description: 'Codes of no country (+800, +870, +881, +882): satellite phones cost the most of all.' },
];

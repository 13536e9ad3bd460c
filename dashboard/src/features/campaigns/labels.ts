import type { CallDirection, CampaignPriority, CampaignWeekday } from '../../api/gen/model';
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

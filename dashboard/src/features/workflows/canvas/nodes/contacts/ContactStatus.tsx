import type { ContactCallStatus } from '../../../../../api/gen/model';
import { Badge, type BadgeTone } from '../../../../../components/ui/badge';

/** A contact's call status in words and a tone (CSV and HubSpot tables alike). */
const STATUS: Record<ContactCallStatus, { label: string; tone: BadgeTone }> = {
  pending: { label: 'Pending', tone: 'neutral' },
  calling: { label: 'Calling', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  'no-answer': { label: 'No answer', tone: 'warning' },
  busy: { label: 'Busy', tone: 'warning' },
  voicemail: { label: 'Voicemail', tone: 'warning' },
  failed: { label: 'Failed', tone: 'declined' },
};

export function ContactStatus({ status }: { status: ContactCallStatus }) {
  const s = STATUS[status] ?? { label: status, tone: 'neutral' as const };
  return <Badge tone={s.tone}>{s.label}</Badge>;
}


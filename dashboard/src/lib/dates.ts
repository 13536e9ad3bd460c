// Every screen shows dates the same way: in the reader's locale and time zone, with the month
// as a word so 03/04 is never ambiguous. A missing or unreadable value shows as an em dash.

const DATE: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' };
const DATE_TIME: Intl.DateTimeFormatOptions = { ...DATE, hour: '2-digit', minute: '2-digit' };

export const NO_DATE = '—';

function parse(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** "Mar 31, 2025" (in the reader's locale); an em dash when there is no date. */
export function formatDate(value: string | null | undefined): string {
  return parse(value)?.toLocaleDateString(undefined, DATE) ?? NO_DATE;
}

/** "Mar 31, 2025, 09:41", for lists where several things happen on one day. */
export function formatDateTime(value: string | null | undefined): string {
  return parse(value)?.toLocaleString(undefined, DATE_TIME) ?? NO_DATE;
}

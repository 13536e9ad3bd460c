import type { CallDailyCount } from '../../api/gen/model';
import { BarChart } from '../../components/BarChart';
import { count } from '../../lib/plural';

/** "Mon 23" for a week, "23" for longer ranges (the month is in the range's title). */
function dayLabel(date: string, short: boolean): string {
  if (short) return String(Number(date.slice(8)));
  const d = new Date(`${date}T00:00:00Z`);
  return `${d.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' })} ${Number(date.slice(8))}`;
}


/** Calls per day as bars. */
export function DailyCallsChart({ days, label }: { days: readonly CallDailyCount[]; label: string }) {
  const short = days.length > 7;
  return (
    <BarChart
      data={days}
      label={label}
      testId="daily-calls-chart"
      category={(d) => d.date}
      value={(d) => d.count}
      integer
      formatTick={String}
      axisLabel={(d) => dayLabel(d.date, short)}
      axisLabelWidth={short ? 18 : 44}
      describe={(d) => `${d.date}: ${count(d.count, 'call')}`}
      rowHeader="Day"
      columns={[{ header: 'Calls', cell: (d) => d.count }]}
    />
  );
}

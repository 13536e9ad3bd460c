import type { TeamCostsUsageDay } from '../../api/gen/model';
import { BarChart } from '../../components/BarChart';
import { formatMinutes, formatMoney } from './billing';
import { count } from '../../lib/plural';

/** The month's cost per day as bars. */
export function UsageChart({ days, currency, label }: { days: readonly TeamCostsUsageDay[]; currency: string; label: string }) {
  return (
    <BarChart
      data={days}
      label={label}
      testId="usage-chart"
      height={170}
      axisWidth={40}
      barRadius={1.5}
      category={(d) => d.date}
      value={(d) => d.cost}
      formatTick={(t) => formatMoney(t, currency).replace('.00', '')}
      axisLabel={(d) => String(Number(d.date.slice(8)))}
      axisLabelWidth={18}
      describe={(d) => `${d.date}: ${formatMoney(d.cost, currency)}, ${formatMinutes(d.minutes)}, ${count(d.calls, 'call')}`}
      rowHeader="Day"
      columns={[
        { header: 'Calls', cell: (d) => d.calls },
        { header: 'Minutes', cell: (d) => formatMinutes(d.minutes) },
        { header: 'Cost', cell: (d) => formatMoney(d.cost, currency) },
      ]}
    />
  );
}

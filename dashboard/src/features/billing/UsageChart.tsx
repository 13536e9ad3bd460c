import { useEffect, useRef, useState } from 'react';

import type { TeamCostsUsageDay } from '../../api/gen/model';
import { formatMinutes, formatMoney, layoutBars, niceMax } from './billing';

/** The drawing's width until the figure is measured; then one unit is one pixel, so text stays legible on phones. */
const DEFAULT_WIDTH = 420;
const HEIGHT = 170;
const LEFT = 40;
const BOTTOM = 20;
/** Room above the top line for its label. */
const TOP = 8;

/** The month's cost per day as bars: a small SVG of our own, with the figures in a table for screen readers. */
export function UsageChart({ days, currency, label }: { days: readonly TeamCostsUsageDay[]; currency: string; label: string }) {
  const figure = useRef<HTMLElement>(null);
  const [WIDTH, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const node = figure.current;
    if (!node || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(node);
    return () => observer.disconnect();
  }, []);
  const values = days.map((d) => d.cost);
  const top = niceMax(values);
  const plotW = WIDTH - LEFT;
  const plotH = HEIGHT - BOTTOM - TOP;
  const bars = layoutBars(values, plotW, plotH, top);
  const ticks = [0, top / 2, top];
  // A day label needs about 18 px; otherwise every fifth day is named.
  const every = days.length * 18 > plotW ? 5 : 1;
  return (
    <figure ref={figure} className="m-0">
      <svg viewBox={`0 0 ${WIDTH} ${HEIGHT}`} width="100%" height={HEIGHT} role="img" aria-label={label} data-testid="usage-chart">
        {ticks.map((t) => {
          const y = TOP + plotH - (t / top) * plotH;
          return (
            <g key={t}>
              <line x1={LEFT} x2={WIDTH} y1={y} y2={y} className="stroke-line" strokeWidth={1} strokeDasharray={t === 0 ? undefined : '3 3'} />
              <text x={LEFT - 6} y={y + 4} textAnchor="end" className="fill-fg-subtle text-[10px]">
                {formatMoney(t, currency).replace('.00', '')}
              </text>
            </g>
          );
        })}
        {bars.map((b, i) => (
          <rect key={days[i]!.date} x={LEFT + b.x} y={TOP + b.y} width={b.width} height={b.height} rx={1.5} className="fill-accent">
            <title>{`${days[i]!.date}: ${formatMoney(days[i]!.cost, currency)}, ${formatMinutes(days[i]!.minutes)}, ${days[i]!.calls} calls`}</title>
          </rect>
        ))}
        {bars.map((b, i) =>
          i % every === 0 ? (
            <text key={`l${days[i]!.date}`} x={LEFT + b.x + b.width / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-fg-subtle text-[10px]">
              {Number(days[i]!.date.slice(8))}
            </text>
          ) : null,
        )}
      </svg>
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Calls</th>
            <th scope="col">Minutes</th>
            <th scope="col">Cost</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{d.calls}</td>
              <td>{formatMinutes(d.minutes)}</td>
              <td>{formatMoney(d.cost, currency)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

import { useEffect, useRef, useState } from 'react';

import type { CallDailyCount } from '../../api/gen/model';
import { layoutBars, niceMax } from '../billing/billing';

const DEFAULT_WIDTH = 420;
const HEIGHT = 160;
const LEFT = 32;
const BOTTOM = 20;
const TOP = 8;

/** "Mon 23" for a week, "23" for longer ranges (the month is in the range's title). */
function dayLabel(date: string, short: boolean): string {
  if (short) return String(Number(date.slice(8)));
  const d = new Date(`${date}T00:00:00Z`);
  return `${d.toLocaleDateString('en-US', { weekday: 'short', timeZone: 'UTC' })} ${Number(date.slice(8))}`;
}

/** Calls per day as bars (an SVG of our own), with the figures in a table for screen readers. */
export function DailyCallsChart({ days, label }: { days: readonly CallDailyCount[]; label: string }) {
  const figure = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
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
  const values = days.map((d) => d.count);
  const top = Math.max(1, Math.ceil(niceMax(values)));
  const plotW = width - LEFT;
  const plotH = HEIGHT - BOTTOM - TOP;
  const bars = layoutBars(values, plotW, plotH, top);
  const ticks = top % 2 === 0 ? [0, top / 2, top] : [0, top];
  const short = days.length > 7;
  const every = days.length * (short ? 18 : 44) > plotW ? Math.ceil((days.length * (short ? 18 : 44)) / plotW) : 1;
  return (
    <figure ref={figure} className="m-0">
      <svg viewBox={`0 0 ${width} ${HEIGHT}`} width="100%" height={HEIGHT} role="img" aria-label={label} data-testid="daily-calls-chart">
        {ticks.map((t) => {
          const y = TOP + plotH - (t / top) * plotH;
          return (
            <g key={t}>
              <line x1={LEFT} x2={width} y1={y} y2={y} className="stroke-line" strokeWidth={1} strokeDasharray={t === 0 ? undefined : '3 3'} />
              <text x={LEFT - 6} y={y + 4} textAnchor="end" className="fill-fg-subtle text-[10px]">
                {t}
              </text>
            </g>
          );
        })}
        {bars.map((b, i) => (
          <rect key={days[i]!.date} x={LEFT + b.x} y={TOP + b.y} width={b.width} height={b.height} rx={2} className="fill-accent">
            <title>{`${days[i]!.date}: ${days[i]!.count} ${days[i]!.count === 1 ? 'call' : 'calls'}`}</title>
          </rect>
        ))}
        {bars.map((b, i) =>
          i % every === 0 ? (
            <text key={`l${days[i]!.date}`} x={LEFT + b.x + b.width / 2} y={HEIGHT - 6} textAnchor="middle" className="fill-fg-subtle text-[10px]">
              {dayLabel(days[i]!.date, short)}
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
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{d.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

import { useEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

import { axisTicks, labelStep, layoutBars } from '../lib/chart';

/** The drawing's width until the figure is measured; then one unit is one pixel, so text stays legible on phones. */
const DEFAULT_WIDTH = 420;
const BOTTOM = 20;
/** Room above the top line for its label. */
const TOP = 8;

export interface BarChartColumn<T> {
  header: string;
  cell: (d: T) => ReactNode;
}

export interface BarChartProps<T> {
  data: readonly T[];
  /** What the chart shows, for its caption and its name. */
  label: string;
  /** The bar's key and its table row's header (a date). */
  category: (d: T) => string;
  value: (d: T) => number;
  /** Counts: a whole-number axis. */
  integer?: boolean;
  /** A value-axis tick's text. */
  formatTick: (v: number) => string;
  /** The text under a bar, and the px such a label needs (labels thin out to fit). */
  axisLabel: (d: T) => string;
  axisLabelWidth: number;
  /** The bar's figures: its tooltip and its name when focused. */
  describe: (d: T) => string;
  /** The table screen readers read: its first column is `category`. */
  rowHeader: string;
  columns: readonly BarChartColumn<T>[];
  testId: string;
  height?: number;
  /** Room left of the plot for the value axis's labels. */
  axisWidth?: number;
  barRadius?: number;
}

/**
 * Bars (an SVG of our own) with the figures in a table for screen readers. The bars are one tab
 * stop: arrows, Home and End move between them, and the one focused or pointed at shows its figures.
 */
export function BarChart<T>({
  data,
  label,
  category,
  value,
  integer = false,
  formatTick,
  axisLabel,
  axisLabelWidth,
  describe,
  rowHeader,
  columns,
  testId,
  height = 160,
  axisWidth = 32,
  barRadius = 2,
}: BarChartProps<T>) {
  const figure = useRef<HTMLElement>(null);
  const bars = useRef<(SVGGElement | null)[]>([]);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const [shown, setShown] = useState<number | null>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const [stop, setStop] = useState(0);
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
  const values = data.map(value);
  const { top, ticks } = axisTicks(values, integer);
  const plotW = width - axisWidth;
  const plotH = height - BOTTOM - TOP;
  const layout = layoutBars(values, plotW, plotH, top);
  const slot = data.length > 0 ? plotW / data.length : 0;
  const every = labelStep(data.length, axisLabelWidth, plotW);
  const tabStop = Math.min(stop, Math.max(0, data.length - 1));

  function onKeyDown(e: KeyboardEvent, i: number) {
    const next = { ArrowRight: i + 1, ArrowUp: i + 1, ArrowLeft: i - 1, ArrowDown: i - 1, Home: 0, End: data.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const to = Math.max(0, Math.min(data.length - 1, next));
    setStop(to);
    bars.current[to]?.focus();
  }

  const tip = shown !== null && shown < data.length ? shown : null;
  const tipX = tip === null ? 0 : axisWidth + tip * slot + slot / 2;
  return (
    <figure ref={figure} className="relative m-0">
      <svg viewBox={`0 0 ${width} ${height}`} width="100%" height={height} role="group" aria-label={label} data-testid={testId}>
        {ticks.map((t) => {
          const y = TOP + plotH - (t / top) * plotH;
          return (
            <g key={t} aria-hidden="true">
              <line x1={axisWidth} x2={width} y1={y} y2={y} className="stroke-line" strokeWidth={1} strokeDasharray={t === 0 ? undefined : '3 3'} />
              <text x={axisWidth - 6} y={y + 4} textAnchor="end" className="fill-fg-subtle text-[10px]">
                {formatTick(t)}
              </text>
            </g>
          );
        })}
        {layout.map((b, i) => (
          <g
            key={category(data[i]!)}
            ref={(node) => {
              bars.current[i] = node;
            }}
            role="img"
            aria-label={describe(data[i]!)}
            tabIndex={i === tabStop ? 0 : -1}
            className="outline-none"
            onFocus={() => {
              setStop(i);
              setFocused(i);
              setShown(i);
            }}
            onBlur={() => {
              setFocused(null);
              setShown(null);
            }}
            onPointerEnter={() => setShown(i)}
            onPointerLeave={() => setShown(focused)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {/* The whole slot answers the pointer, so a day without any is still there to point at. */}
            <rect
              x={axisWidth + i * slot}
              y={TOP}
              width={slot}
              height={plotH}
              rx={2}
              className={shown === i ? 'fill-muted' : 'fill-transparent'}
              stroke={focused === i ? 'var(--color-accent)' : undefined}
              strokeWidth={focused === i ? 2 : undefined}
            />
            <rect x={axisWidth + b.x} y={TOP + b.y} width={b.width} height={b.height} rx={barRadius} className="fill-accent" />
          </g>
        ))}
        {layout.map((b, i) =>
          i % every === 0 ? (
            <text
              key={`l${category(data[i]!)}`}
              aria-hidden="true"
              x={axisWidth + b.x + b.width / 2}
              y={height - 6}
              textAnchor="middle"
              className="fill-fg-subtle text-[10px]"
            >
              {axisLabel(data[i]!)}
            </text>
          ) : null,
        )}
      </svg>
      {tip !== null && (
        // The focused bar already says the same to assistive technology.
        <div
          aria-hidden="true"
          data-testid={`${testId}-tooltip`}
          className="pointer-events-none absolute z-10 rounded-md border border-line bg-surface px-2 py-1 text-xs whitespace-nowrap text-fg shadow-lg"
          style={{
            left: tipX,
            // Above the bar, but no lower than the middle, so a short bar's figures cover no axis labels.
            top: TOP + Math.min(layout[tip]!.y, plotH / 2) - 6,
            transform: `translate(${tipX < width * 0.25 ? '-15%' : tipX > width * 0.75 ? '-85%' : '-50%'}, -100%)`,
          }}
        >
          {describe(data[tip]!)}
        </div>
      )}
      <table className="sr-only">
        <caption>{label}</caption>
        <thead>
          <tr>
            <th scope="col">{rowHeader}</th>
            {columns.map((c) => (
              <th key={c.header} scope="col">
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={category(d)}>
              <th scope="row">{category(d)}</th>
              {columns.map((c) => (
                <td key={c.header}>{c.cell(d)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

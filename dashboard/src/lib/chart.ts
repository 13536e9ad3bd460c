/** Scales and layout for the dashboard's bar charts (src/components/BarChart.tsx). */

/** A round top for the chart's axis: the smallest 1, 2, 2.5 or 5 × 10^n at or above the largest value (1 when all are zero). */
export function niceMax(values: readonly number[]): number {
  const max = Math.max(0, ...values.filter((v) => Number.isFinite(v)));
  if (max <= 0) return 1;
  const power = 10 ** Math.floor(Math.log10(max));
  for (const step of [1, 2, 2.5, 5, 10]) {
    if (step * power >= max - 1e-9) return step * power;
  }
  return 10 * power;
}

/** The axis top and its ticks; counts (`integer`) get a whole top and a middle tick only when it is whole too. */
export function axisTicks(values: readonly number[], integer: boolean): { top: number; ticks: number[] } {
  if (!integer) {
    const top = niceMax(values);
    return { top, ticks: [0, top / 2, top] };
  }
  const top = Math.max(1, Math.ceil(niceMax(values)));
  return { top, ticks: top % 2 === 0 ? [0, top / 2, top] : [0, top] };
}

/** Every how many bars an axis label fits, when a label needs `labelWidth` px of a `width` px plot. */
export function labelStep(count: number, labelWidth: number, width: number): number {
  const needed = count * labelWidth;
  return needed > width ? Math.ceil(needed / width) : 1;
}

export interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
  value: number;
}

/** Bars for `values` in a width × height box, scaled to `top`; a non-zero value is at least 1 px tall. */
export function layoutBars(values: readonly number[], width: number, height: number, top = niceMax(values), gap = 0.25): Bar[] {
  if (values.length === 0) return [];
  const slot = width / values.length;
  const barWidth = Math.max(1, slot * (1 - gap));
  return values.map((value, i) => {
    const clamped = Math.max(0, Math.min(value, top));
    const h = clamped === 0 ? 0 : Math.max(1, (clamped / top) * height);
    return { x: i * slot + (slot - barWidth) / 2, y: height - h, width: barWidth, height: h, value };
  });
}

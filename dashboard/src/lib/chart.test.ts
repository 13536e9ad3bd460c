import { describe, expect, it } from 'vitest';

import { axisTicks, labelStep, layoutBars, niceMax } from './chart';

describe('chart scaling', () => {
  it('rounds the top up to 1, 2, 2.5 or 5 × 10^n', () => {
    expect(niceMax([])).toBe(1);
    expect(niceMax([0, 0])).toBe(1);
    expect(niceMax([0.27])).toBeCloseTo(0.5);
    expect(niceMax([3])).toBe(5);
    expect(niceMax([10])).toBe(10);
    expect(niceMax([11])).toBe(20);
    expect(niceMax([21.6])).toBe(25);
    expect(niceMax([740])).toBe(1000);
  });
  it('keeps counts whole: no 2.5 top, no half tick', () => {
    expect(axisTicks([0.27], false)).toEqual({ top: 0.5, ticks: [0, 0.25, 0.5] });
    expect(axisTicks([0, 0], true)).toEqual({ top: 1, ticks: [0, 1] });
    expect(axisTicks([3], true)).toEqual({ top: 5, ticks: [0, 5] });
    expect(axisTicks([11], true)).toEqual({ top: 20, ticks: [0, 10, 20] });
    expect(axisTicks([2.2], true)).toEqual({ top: 3, ticks: [0, 3] });
  });
  it('thins the axis labels out to fit', () => {
    expect(labelStep(7, 44, 388)).toBe(1);
    expect(labelStep(31, 18, 388)).toBe(2);
    expect(labelStep(90, 18, 388)).toBe(5);
  });
  it('lays bars out bottom-up in their slots; small values stay visible, zero stays flat', () => {
    const bars = layoutBars([0, 5, 10, 0.001], 400, 100, 10, 0.5);
    expect(bars).toHaveLength(4);
    expect(bars[0]).toMatchObject({ x: 25, width: 50, height: 0, y: 100 });
    expect(bars[1]).toMatchObject({ x: 125, height: 50, y: 50 });
    expect(bars[2]).toMatchObject({ height: 100, y: 0 });
    expect(bars[3]!.height).toBe(1);
    expect(layoutBars([], 100, 100)).toEqual([]);
  });
});

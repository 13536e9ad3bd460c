import { describe, expect, it } from 'vitest';

import { callStatus, formatCost, formatDuration, lastDays, rangeProblem } from './format';

describe('call formatting', () => {
  it('writes durations, costs and statuses', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(184)).toBe('3:04');
    expect(formatDuration(3700)).toBe('1:01:40');
    expect(formatCost(0.81)).toBe('$0.81');
    expect(formatCost(0.005)).toBe('$0.005');
    expect(formatCost(0)).toBe('$0.00');
    expect(callStatus('no-answer')).toEqual({ label: 'No answer', tone: 'warning' });
    expect(callStatus('weird').label).toBe('weird');
  });

  it('defaults to the last 7 UTC days, today included', () => {
    expect(lastDays(7, new Date('2026-03-31T23:30:00Z'))).toEqual({ startDate: '2026-03-25', endDate: '2026-03-31' });
    expect(lastDays(1, new Date('2026-03-31T00:10:00Z'))).toEqual({ startDate: '2026-03-31', endDate: '2026-03-31' });
  });

  it('refuses the ranges the server refuses', () => {
    expect(rangeProblem('2026-03-25', '2026-03-31')).toBe('');
    expect(rangeProblem('2026-04-01', '2026-03-31')).toMatch(/after/);
    expect(rangeProblem('2025-01-01', '2026-03-31')).toMatch(/366/);
    expect(rangeProblem('2025-03-31', '2026-03-31')).toBe('');
    expect(rangeProblem('', '2026-03-31')).toMatch(/both/);
  });
});

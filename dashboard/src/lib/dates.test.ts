import { describe, expect, it } from 'vitest';

import { NO_DATE, formatDate, formatDateTime } from './dates';

describe('formatDate', () => {
  it('shows a date with the month as a word, the same on every screen', () => {
    const expected = new Date('2026-01-02T10:00:00Z').toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
    expect(formatDate('2026-01-02T10:00:00Z')).toBe(expected);
    expect(formatDate('2026-01-02T10:00:00Z')).toMatch(/2026/);
  });

  it('shows an em dash for no date or an unreadable one', () => {
    expect(formatDate(null)).toBe(NO_DATE);
    expect(formatDate(undefined)).toBe(NO_DATE);
    expect(formatDate('')).toBe(NO_DATE);
    expect(formatDate('not a date')).toBe(NO_DATE);
    expect(formatDateTime(null)).toBe(NO_DATE);
  });

  it('adds the time where it is wanted', () => {
    const value = '2026-01-02T10:07:00Z';
    expect(formatDateTime(value).startsWith(formatDate(value))).toBe(true);
    expect(formatDateTime(value).length).toBeGreaterThan(formatDate(value).length);
  });
});

import { describe, expect, it } from 'vitest';

import { count } from './plural';

describe('count', () => {
  it('writes one noun for one and the plural for any other number', () => {
    expect(count(1, 'call')).toBe('1 call');
    expect(count(0, 'call')).toBe('0 calls');
    expect(count(1234, 'call')).toBe('1,234 calls');
    expect(count(2, 'entry', 'entries')).toBe('2 entries');
    expect(count(1, 'entry', 'entries')).toBe('1 entry');
  });
});

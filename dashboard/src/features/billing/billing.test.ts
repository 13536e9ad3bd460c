import { describe, expect, it } from 'vitest';

import { can } from '../../lib/roles';
import { creditsProblem, formatCredits, formatMoney, formatPrice, highlightedTier, nextUpgrade, recentMonths, returnUrl } from './billing';

describe('nextUpgrade (spec section 4)', () => {
  it.each([
    ['free', 'tier1'],
    [undefined, 'tier1'],
    ['something', 'tier1'],
    ['tier1', 'tier2'],
    ['tier2', 'tier3'],
    ['tier3', 'tier1'],
    ['tier4', 'tier1'],
  ])('%s → %s', (from, to) => expect(nextUpgrade(from)).toBe(to));

  it('the URL’s selectedTier wins when it names a tier', () => {
    expect(highlightedTier('free', 'tier3')).toBe('tier3');
    expect(highlightedTier('tier1', 'tier9')).toBe('tier2');
    expect(highlightedTier('tier2', null)).toBe('tier3');
  });
});

describe('money and credits', () => {
  it('formats dollars with cents and a true minus', () => {
    expect(formatMoney(1234.5)).toBe('$1,234.50');
    expect(formatMoney(0)).toBe('$0.00');
    expect(formatMoney(-0.27)).toBe('−$0.27');
    expect(formatMoney(-0.001)).toBe('$0.00');
    expect(formatPrice(149)).toBe('$149');
  });
  it('formats credits, singular and with cents only when there are some', () => {
    expect(formatCredits(1)).toBe('1 credit');
    expect(formatCredits(25)).toBe('25 credits');
    expect(formatCredits(1234.5)).toBe('1,234.50 credits');
    expect(formatCredits(-0.54)).toBe('−0.54 credits');
  });
  it('checks the amount to buy', () => {
    expect(creditsProblem('25')).toBe('');
    expect(creditsProblem('4')).toMatch(/5 to 2,500/);
    expect(creditsProblem('2501')).toMatch(/5 to 2,500/);
    expect(creditsProblem('1.5')).toMatch(/whole number/);
    expect(creditsProblem('')).toMatch(/whole number/);
  });
});

describe('months and return URLs', () => {
  it('lists the last months newest first, across a year boundary', () => {
    expect(recentMonths(new Date(Date.UTC(2026, 1, 10)), 3)).toEqual([
      { month: 2, year: 2026 },
      { month: 1, year: 2026 },
      { month: 12, year: 2025 },
    ]);
  });
  it('drops a previous checkout outcome from the return URL', () => {
    expect(returnUrl('https://b.example/dashboard/billing?teamId=t1&paymentStatus=success&dbPaymentIntentId=p1#x')).toBe('https://b.example/dashboard/billing?teamId=t1');
  });
});

describe('who sees billing (spec section 6)', () => {
  it('owner, admin and developer view; only admin and owner pay', () => {
    expect((['owner', 'admin', 'developer', 'member', 'readonly'] as const).map((r) => can(r, 'viewBilling').allowed)).toEqual([true, true, true, false, false]);
    expect((['owner', 'admin', 'developer'] as const).map((r) => can(r, 'manageBilling').allowed)).toEqual([true, true, false]);
  });
});

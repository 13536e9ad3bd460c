// The pure parts of the billing screen: which tier to highlight, how money and credits read,
// how the usage chart scales, and the dashboard paths a checkout returns to.

import type { SubscriptionTier } from '../../api/gen/model';

/** The tier ids, for reading `selectedTier` from the URL (names, prices and limits come from the server's catalogue). */
export const TIERS: readonly SubscriptionTier[] = ['free', 'tier1', 'tier2', 'tier3', 'tier4'];

/** Credits a checkout may buy (the server's bounds). */
export const MIN_CREDITS = 5;
export const MAX_CREDITS = 2500;

/**
 * The tier the screen highlights (spec section 4): free or unknown to tier1, tier1 to tier2,
 * tier2 to tier3, others to tier1.
 */
export function nextUpgrade(tier: string | null | undefined): SubscriptionTier {
  if (tier === 'tier1') return 'tier2';
  if (tier === 'tier2') return 'tier3';
  return 'tier1';
}

/** The tier to highlight: the URL's `selectedTier` when it names a tier, else the next upgrade. */
export function highlightedTier(current: string | null | undefined, selected: string | null | undefined): SubscriptionTier {
  if (selected && (TIERS as readonly string[]).includes(selected)) return selected as SubscriptionTier;
  return nextUpgrade(current);
}

/** "$1,234.50"; negative amounts read "−$0.27". */
export function formatMoney(amount: number, currency = 'USD'): string {
  const text = new Intl.NumberFormat('en-US', { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(Math.abs(amount));
  return amount < 0 && Math.abs(amount) >= 0.005 ? `−${text}` : text;
}

/** A whole-dollar price: "$49". */
export function formatPrice(amount: number, currency = 'USD'): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
}

/** "1,234.50 credits", "1 credit"; two decimals only when there are cents. */
export function formatCredits(balance: number): string {
  const rounded = Math.round(balance * 100) / 100;
  const whole = Number.isInteger(rounded);
  const text = new Intl.NumberFormat('en-US', { minimumFractionDigits: whole ? 0 : 2, maximumFractionDigits: 2 }).format(rounded);
  return `${text.replace('-', '−')} ${Math.abs(rounded) === 1 ? 'credit' : 'credits'}`;
}

/** Minutes as people read them: "12.5 min". */
export function formatMinutes(minutes: number): string {
  return `${new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }).format(minutes)} min`;
}

/** Why a credit amount cannot be bought; empty when it can. */
export function creditsProblem(text: string): string {
  if (!/^\d+$/.test(text.trim())) return `Enter a whole number of credits from ${MIN_CREDITS} to ${MAX_CREDITS}.`;
  const n = Number(text.trim());
  if (n < MIN_CREDITS || n > MAX_CREDITS) return `You can buy ${MIN_CREDITS} to ${MAX_CREDITS.toLocaleString('en-US')} credits at a time.`;
  return '';
}

/** The last `count` months, newest first, as {month 1-12, year}. */
export function recentMonths(now: Date, count = 12): { month: number; year: number }[] {
  const out: { month: number; year: number }[] = [];
  for (let i = 0; i < count; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    if (d.getUTCFullYear() < 2020) break;
    out.push({ month: d.getUTCMonth() + 1, year: d.getUTCFullYear() });
  }
  return out;
}

/** "November 2026". */
export function monthLabel(month: number, year: number): string {
  return new Date(Date.UTC(year, month - 1, 1)).toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
}

/** The URL a checkout comes back to: this screen of this team, without a previous outcome. */
export function returnUrl(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('paymentStatus');
  url.searchParams.delete('dbPaymentIntentId');
  url.hash = '';
  return url.toString();
}

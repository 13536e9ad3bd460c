// The names people read for a team's subscription tier (spec section 4) and verification level.

import type { SubscriptionTier, VerificationLevel } from '../api/gen/model';

export const TIER_NAMES: Record<SubscriptionTier, string> = { free: 'Free', tier1: 'Starter Plan', tier2: 'Professional Plan', tier3: 'Growth', tier4: 'Custom' };
export const LEVEL_NAMES: Record<VerificationLevel, string> = { none: 'Not verified', l1: 'L1 verified', l2: 'L2 verified' };

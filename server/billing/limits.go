package billing

import (
	"fmt"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// Limit is something a team's tier caps. Every limit that depends on the tier is in the one
// table below; the features enforce it with Check where it bites.
type Limit string

const (
	// LimitCustomVoices caps the custom voice profiles of a team (spec section 9: 3 on tier4,
	// otherwise 1).
	LimitCustomVoices Limit = "custom voice profiles"
)

// tierOrder is the tiers from the cheapest up.
var tierOrder = []store.SubscriptionTier{store.TierFree, store.Tier1, store.Tier2, store.Tier3, store.Tier4}

// limits is the one table of what each tier allows.
var limits = map[Limit]map[store.SubscriptionTier]int{
	LimitCustomVoices: {store.TierFree: 1, store.Tier1: 1, store.Tier2: 1, store.Tier3: 1, store.Tier4: 3},
}

// TierNames are the product's names of the tiers.
var TierNames = map[store.SubscriptionTier]string{
	store.TierFree: "Free", store.Tier1: "Starter Plan", store.Tier2: "Professional Plan", store.Tier3: "Growth", store.Tier4: "Custom",
}

// Allowed is how many of l a team on tier may have.
func Allowed(tier store.SubscriptionTier, l Limit) int {
	if n, ok := limits[l][tier]; ok {
		return n
	}
	return limits[l][store.TierFree]
}

// Check answers nil while a team on tier that has used of l may add one more; otherwise a 403
// (code limit_reached) naming the limit and the tier that lifts it.
func Check(tier store.SubscriptionTier, l Limit, used int) error {
	allowed := Allowed(tier, l)
	if used < allowed {
		return nil
	}
	msg := fmt.Sprintf("Your plan (%s) allows %d %s and this team has %d.", TierNames[tier], allowed, l, used)
	for _, t := range tierOrder {
		if Allowed(t, l) > allowed {
			msg += fmt.Sprintf(" The %s plan (%s) allows %d.", TierNames[t], t, Allowed(t, l))
			break
		}
	}
	return errs.WithCode(errs.Forbidden, errs.CodeLimitReached, msg)
}

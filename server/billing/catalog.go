package billing

import "github.com/bettyhq/betty/server/store"

// Offer is one tier as it is sold: its name, monthly price and what it allows.
type Offer struct {
	Tier store.SubscriptionTier
	Name string
	// MonthlyPrice is in US dollars; nil for Custom (priced with sales), 0 for free.
	MonthlyPrice *float64
	// Purchasable: bought at checkout (tier1 to tier3).
	Purchasable bool
	Limits      map[Limit]int
}

// Catalog is the tiers and prices clients show (GET /v1/payment/tiers): one source for the
// dashboard and the CLI, read from the tables of limits.go and payments.go.
type Catalog struct {
	Offers             []Offer
	CreditPrice        float64 // US dollars for one credit
	CallRate           float64 // US dollars (credits) for one billed minute
	PaymentsConfigured bool
}

// Catalog answers the tiers from the cheapest up with their prices and limits, and whether
// this deployment takes payments.
func (s *Service) Catalog() Catalog {
	c := Catalog{CreditPrice: float64(CreditPriceCents) / 100, CallRate: CallRatePerMinute, PaymentsConfigured: s.Configured()}
	for _, t := range tierOrder {
		o := Offer{Tier: t, Name: TierNames[t], Limits: map[Limit]int{}}
		switch cents, sold := TierPricesCents[t]; {
		case sold:
			p := float64(cents) / 100
			o.MonthlyPrice, o.Purchasable = &p, true
		case t == store.TierFree:
			zero := 0.0
			o.MonthlyPrice = &zero
		}
		for _, l := range Limits {
			o.Limits[l] = Allowed(t, l)
		}
		c.Offers = append(c.Offers, o)
	}
	return c
}

package runs

import (
	"context"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/store"
)

// A server has one carrier: the one that sold its numbers places all its calls (outbound,
// inbound, test calls), so whether a call is free follows from the number's carrier, which is
// the server's (billing.CallIsFree decides). Free calls see a team whose credits cover any
// call: no refusal before a run, no pause for the balance, nothing charged at hang-up.

// simulated says whether this server's calls go through the offline simulator.
func (s *Service) simulated() bool { return billing.CallIsFree(s.cfg.Carrier) }

// funds is the team's credits as the dialer's checks see them: with free calls a minute
// costs 0 and a balance below zero (calls charged before) refuses nothing.
func (s *Service) funds(ctx context.Context, orgID string) (balance, rate float64, tier store.SubscriptionTier, err error) {
	balance, rate, tier, err = s.d.Billing.CallFunds(ctx, orgID)
	if err != nil || !s.simulated() {
		return balance, rate, tier, err
	}
	return max(balance, 0), 0, tier, nil
}

// charge charges an attempt's billed minutes (nothing for a free call) and answers the cost.
func (s *Service) charge(ctx context.Context, orgID, attemptID string, minutes int) (float64, error) {
	if s.simulated() {
		return 0, nil
	}
	return s.d.Billing.ChargeCall(ctx, orgID, attemptID, minutes)
}

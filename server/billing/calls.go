package billing

import (
	"context"

	"github.com/bettyhq/betty/server/store"
)

// Calls are paid from the team's prepaid credits: each call's billed minutes (rounded up from
// answer to hang-up) times the team's rate are written to the credit ledger (reason "call",
// one row per call attempt, so charging a call twice charges it once) in the transaction that
// ends the call. The dialer asks CallFunds before each call: a team whose balance cannot
// cover one minute has its jobs paused until it is topped up.

// CallRate is the price of one billed minute for a team, in credits (one credit is one US
// dollar). Every team pays CallRatePerMinute today.
func (s *Service) CallRate(ctx context.Context, orgID string) (float64, error) {
	if _, err := s.Team(ctx, orgID); err != nil {
		return 0, err
	}
	return CallRatePerMinute, nil
}

// CallFunds answers a team's credit balance, its per-minute rate and its tier (for the dialer's
// spend and concurrency checks).
func (s *Service) CallFunds(ctx context.Context, orgID string) (balance, rate float64, tier store.SubscriptionTier, err error) {
	o, err := s.Team(ctx, orgID)
	if err != nil {
		return 0, 0, "", err
	}
	return o.CreditsBalance, CallRatePerMinute, o.SubscriptionTier, nil
}

// ChargeCall charges a call attempt's billed minutes at the team's rate and answers the cost
// (0 for 0 minutes, nothing written). It joins the transaction in ctx.
func (s *Service) ChargeCall(ctx context.Context, orgID, attemptID string, minutes int) (float64, error) {
	if minutes <= 0 {
		return 0, nil
	}
	cost := RoundCents(float64(minutes) * CallRatePerMinute)
	_, err := s.db.ChargeCall(ctx, orgID, attemptID, cost)
	return cost, err
}

// SimulatorCarrier is the name of the offline simulator (phones/sim), the carrier of a server
// without Telnyx.
const SimulatorCarrier = "sim"

// CallIsFree says whether a call through the carrier named (phones.Telephony's Name: "sim",
// "telnyx") costs nothing. Decision (issue 21): calls through the simulator are fictional (no
// one is dialled, no carrier bills anyone), so they are never refused for credits and are
// charged 0; their call logs say "simulated". Every real carrier's calls are paid from the
// team's credits. This is the one place the rule lives: the dialer (server/runs, credits.go)
// asks it for outbound, inbound and test calls alike.
func CallIsFree(carrier string) bool { return carrier == SimulatorCarrier }

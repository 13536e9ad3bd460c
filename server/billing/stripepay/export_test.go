package stripepay

import "context"

// Refund is refund, for the test against stripe-mock (whose subscription fixture has no
// charged invoice, so RefundSubscription never reaches it there).
func (s *Stripe) Refund(ctx context.Context, paymentIntentID, subscriptionID, key string) error {
	return s.refund(ctx, paymentIntentID, subscriptionID, key)
}

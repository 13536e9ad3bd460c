package billing

import (
	"context"
	"errors"
	"log/slog"

	"github.com/riverqueue/river"

	"github.com/bettyhq/betty/server/jobs"
)

// A paid phone number the carrier cannot deliver (sold to someone else between the search and
// the payment) fails its payment intent and is refunded: the webhook's transaction marks the
// intent failed and inserts a refund job, which ends the number's subscription at Stripe and
// refunds its first invoice. The job retries with River's backoff while Stripe is unreachable;
// the provider's idempotency key makes a repeated refund harmless.

// refundArgs is the refund of a number subscription whose number could not be ordered.
type refundArgs struct {
	OrganizationID string `json:"organizationId"`
	IntentID       string `json:"intentId"`
	SubscriptionID string `json:"subscriptionId"`
}

func (refundArgs) Kind() string { return "billing.refund_undelivered_number" }

type refunder struct {
	river.WorkerDefaults[refundArgs]
	s *Service
}

func (w *refunder) Work(ctx context.Context, job *river.Job[refundArgs]) error {
	p, err := w.s.provider()
	if err != nil {
		return err // Stripe was configured when it charged; a restart without it waits here
	}
	a := job.Args
	if err := p.RefundSubscription(ctx, a.SubscriptionID, a.IntentID); err != nil {
		return err
	}
	slog.InfoContext(ctx, "refunded an undelivered phone number", "organization", a.OrganizationID, "intent", a.IntentID, "subscription", a.SubscriptionID)
	return nil
}

// WithJobs gives the service the queue its background work (refunds) runs on.
func WithJobs(q *jobs.Queue) Option {
	return func(s *Service) {
		s.jobs = q
		jobs.Register(q, &refunder{s: s})
	}
}

// refundLater queues the refund of a number subscription, in the transaction in ctx.
func (s *Service) refundLater(ctx context.Context, orgID, intentID string, subscriptionID *string) error {
	if subscriptionID == nil || *subscriptionID == "" {
		return nil // no subscription: nothing was charged through it
	}
	if s.jobs == nil {
		return errors.New("billing: no job queue wired for refunds")
	}
	return s.jobs.Insert(ctx, refundArgs{OrganizationID: orgID, IntentID: intentID, SubscriptionID: *subscriptionID}, nil)
}

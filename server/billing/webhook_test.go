package billing

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"testing"
	"time"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/internal/testdb"
	"github.com/bettyhq/betty/server/store"
)

// stripeSignature signs payload at time at the way Stripe documents it: v1 is the hex
// HMAC-SHA256, keyed with the endpoint's secret, of "<unix seconds>.<payload>".
func stripeSignature(payload []byte, secret string, at time.Time) string {
	m := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(m, "%d.%s", at.Unix(), payload)
	return fmt.Sprintf("t=%d,v1=%s", at.Unix(), hex.EncodeToString(m.Sum(nil)))
}

// A signed event is accepted only when its timestamp is within WebhookTolerance of the
// server's clock, in the past or in the future (stripe-go checks only the past).
func TestStripeWebhookTimestampWindow(t *testing.T) {
	const secret = "whsec_window"
	testdb.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Now().Truncate(time.Second)
		s := New(db, WithPayments(Payments{WebhookSecret: secret}), WithClock(func() time.Time { return now }))
		for i, c := range []struct {
			skew time.Duration
			ok   bool
		}{
			{0, true},
			{-299 * time.Second, true},
			{299 * time.Second, true},
			{-301 * time.Second, false},
			{301 * time.Second, false},
			{400 * time.Second, false},
			{24 * time.Hour, false},
		} {
			payload := fmt.Appendf(nil, `{"id":"evt_window_%d","object":"event","type":"ping","data":{"object":{}}}`, i)
			err := s.HandleEvent(context.Background(), payload, stripeSignature(payload, secret, now.Add(c.skew)))
			switch {
			case c.ok && err != nil:
				t.Errorf("signed %v from now: %v", c.skew, err)
			case !c.ok && !errs.Is(err, errs.Unauthenticated):
				t.Errorf("signed %v from now: %v, want Unauthenticated", c.skew, err)
			}
			if !c.ok {
				// A refused event is not recorded: Stripe's retry, signed afresh, is applied.
				if err := s.HandleEvent(context.Background(), payload, stripeSignature(payload, secret, now)); err != nil {
					t.Errorf("the retry of an event signed %v from now: %v", c.skew, err)
				}
			}
		}
		// A valid signature with the wrong secret stays refused whatever its time.
		payload := []byte(`{"id":"evt_forged","object":"event","type":"ping","data":{"object":{}}}`)
		if err := s.HandleEvent(context.Background(), payload, stripeSignature(payload, "whsec_other", now)); !errs.Is(err, errs.Unauthenticated) {
			t.Errorf("another secret: %v", err)
		}
	})
}

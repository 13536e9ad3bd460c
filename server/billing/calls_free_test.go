package billing_test

import (
	"testing"

	"github.com/bettyhq/betty/server/billing"
)

// Calls through the simulator ("sim") are free; every other carrier's (and an unnamed one's) are paid.
func TestCallIsFree(t *testing.T) {
	for carrier, free := range map[string]bool{billing.SimulatorCarrier: true, "telnyx": false, "": false, "SIM": false} {
		if got := billing.CallIsFree(carrier); got != free {
			t.Errorf("CallIsFree(%q) = %v, want %v", carrier, got, free)
		}
	}
}

package app

import (
	"log/slog"

	"github.com/bettyhq/betty/server/billing"
	"github.com/bettyhq/betty/server/config"
	"github.com/bettyhq/betty/server/jobs"
	"github.com/bettyhq/betty/server/runs"
	"github.com/bettyhq/betty/server/store"
)

// newRuns builds the dialer and registers its worker on queue (before the queue opens): credits
// from billing, the limits from configuration.
func newRuns(cfg config.Config, log *slog.Logger, db *store.DB, queue *jobs.Queue) *runs.Service {
	return runs.New(db, queue, runs.Deps{Billing: billing.New(db), Log: log.With("component", "dialer")},
		runs.Config{CPSPerNumber: cfg.DialerCPSPerNumber, CPSAccount: cfg.DialerCPSAccount, FrequencyCap: cfg.DialerFrequencyCap})
}

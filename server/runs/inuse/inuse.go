// Package inuse is the delete guard of the dialer: a workflow, a campaign or a phone number
// used by a run in progress cannot be deleted (server/runs explains runs). It is apart from
// server/runs so that the domains it guards can ask it without importing the dialer.
package inuse

import (
	"context"
	"errors"
	"fmt"

	"github.com/bettyhq/betty/server/errs"
	"github.com/bettyhq/betty/server/store"
)

// What names what a run uses.
type What string

const (
	Workflow    What = "workflow"
	Campaign    What = "campaign"
	PhoneNumber What = "phone"
)

var names = map[What]string{Workflow: "This workflow", Campaign: "This campaign", PhoneNumber: "This phone number"}

// Check answers a 409 naming the run when a job in progress of the team uses it, else nil.
func Check(ctx context.Context, db *store.DB, orgID string, what What, id string) error {
	j, err := db.RunningJobUsing(ctx, orgID, string(what), id)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	return errs.ConflictErr(fmt.Sprintf("%s is used by a run in progress (job %s, started by %s): end the run first (POST /v1/workflow/end-job/%s) or wait for it to finish.",
		names[what], j.ID, j.TriggeredBy, j.WorkflowID))
}

package campaigns

import (
	"context"

	"github.com/bettyhq/betty/server/store"
)

// A campaign's status follows its runs (issue 21: a campaign that had called 18 people still
// read "Draft", and Home counted no active campaign). The transitions, decided here and in
// docs/campaign-status.md:
//
//	draft, completed, error ──(a run of one of its workflows starts)──▶ active
//	active ──(its last run ends, none in progress; outbound campaigns)──▶ completed
//	active ──(its last run ends in error; outbound campaigns)──▶ error
//	paused ──(anything a run does)──▶ paused: only the user pauses and resumes
//
// Test runs (one call to the caller's own number) change nothing: trying a workflow is not
// running the campaign. An inbound campaign that is active stays active when a run ends: it
// still answers its number. The user may still set any status the update rules allow
// (Update); a new run then moves it again as above.

// StatusAfterRuns is the status a campaign in status current and direction dir takes from
// the state of its runs.
func StatusAfterRuns(current store.CampaignStatus, dir store.Direction, r store.CampaignRuns) store.CampaignStatus {
	if current == store.CampaignPaused {
		return current
	}
	if r.Running {
		return store.CampaignActive
	}
	if current != store.CampaignActive || dir != store.Outbound || r.LastStatus == "" {
		return current
	}
	if r.LastStatus == store.JobError {
		return store.CampaignError
	}
	return store.CampaignCompleted
}

// FollowRuns moves a team's campaign's status to StatusAfterRuns, in the caller's
// transaction; the run lifecycle (server/runs) calls it when a run starts and when it ends.
// It answers whether the status changed (the caller then publishes campaign.updated).
func FollowRuns(ctx context.Context, db *store.DB, orgID, campaignID string) (bool, error) {
	c, err := db.CampaignByID(ctx, orgID, campaignID)
	if err != nil {
		return false, err
	}
	r, err := db.CampaignRunsOf(ctx, orgID, campaignID)
	if err != nil {
		return false, err
	}
	next := StatusAfterRuns(c.Status, c.Direction, r)
	if next == c.Status {
		return false, nil
	}
	return db.SetCampaignStatus(ctx, orgID, campaignID, c.Status, next)
}

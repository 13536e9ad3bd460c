package campaigns_test

import (
	"testing"

	"github.com/bettyhq/betty/server/campaigns"
	"github.com/bettyhq/betty/server/store"
)

func TestStatusAfterRuns(t *testing.T) {
	running := store.CampaignRuns{Running: true}
	ended := store.CampaignRuns{LastStatus: store.JobSuccess}
	cancelled := store.CampaignRuns{LastStatus: store.JobCancelled}
	failed := store.CampaignRuns{LastStatus: store.JobError}
	none := store.CampaignRuns{}
	for _, c := range []struct {
		from store.CampaignStatus
		dir  store.Direction
		runs store.CampaignRuns
		want store.CampaignStatus
	}{
		{store.CampaignDraft, store.Outbound, running, store.CampaignActive},
		{store.CampaignCompleted, store.Outbound, running, store.CampaignActive},
		{store.CampaignError, store.Outbound, running, store.CampaignActive},
		{store.CampaignActive, store.Outbound, ended, store.CampaignCompleted},
		{store.CampaignActive, store.Outbound, cancelled, store.CampaignCompleted},
		{store.CampaignActive, store.Outbound, failed, store.CampaignError},
		{store.CampaignActive, store.Outbound, none, store.CampaignActive},
		{store.CampaignActive, store.Inbound, ended, store.CampaignActive}, // it still answers its number
		{store.CampaignDraft, store.Outbound, ended, store.CampaignDraft},
		{store.CampaignPaused, store.Outbound, running, store.CampaignPaused},
		{store.CampaignPaused, store.Outbound, ended, store.CampaignPaused},
	} {
		if got := campaigns.StatusAfterRuns(c.from, c.dir, c.runs); got != c.want {
			t.Errorf("%s %s %+v: %s, want %s", c.from, c.dir, c.runs, got, c.want)
		}
	}
}

package cmdutil

import (
	"context"
	"regexp"
	"strings"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// What people type for a campaign or a number: its id, as every command takes, or what they
// know it by — a campaign's name, a number in E.164 — as gh takes a repository's name.

// idPattern is the shape of the ids Betty makes (UUIDs); anything else is a name.
var idPattern = regexp.MustCompile(`(?i)^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// FindCampaign answers the campaign of team whose id, or else whose whole name (ignoring case),
// is s. Two campaigns of that name are a usage error listing their ids.
func FindCampaign(ctx context.Context, c *betty.Client, team, s string) (client.Campaign, error) {
	s = strings.TrimSpace(s)
	if idPattern.MatchString(s) {
		camp, err := c.Campaign(ctx, s)
		if err != nil {
			return camp, err
		}
		if camp.OrganizationId != team {
			return camp, FlagErrorf("campaign %s belongs to another team (%s): pass --team %s", s, camp.OrganizationId, camp.OrganizationId)
		}
		return camp, nil
	}
	var found []client.Campaign
	for camp, err := range c.Campaigns(ctx, team, betty.CampaignFilter{Name: s}) {
		if err != nil {
			return client.Campaign{}, err
		}
		if strings.EqualFold(strings.TrimSpace(camp.Name), s) {
			found = append(found, camp)
		}
	}
	switch len(found) {
	case 0:
		return client.Campaign{}, NotFoundf("the team has no campaign named %q (see betty campaigns list)", s)
	case 1:
		return found[0], nil
	}
	ids := make([]string, len(found))
	for i, camp := range found {
		ids[i] = camp.Id
	}
	return client.Campaign{}, FlagErrorf("%d campaigns are named %q: give the id of one (%s)", len(found), s, strings.Join(ids, ", "))
}

// PhoneNumberID answers the id of team's number s: s itself unless it is a number in E.164
// (+…), which is looked up among the team's numbers.
func PhoneNumberID(ctx context.Context, c *betty.Client, team, s string) (string, error) {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "+") {
		return s, nil
	}
	for n, err := range c.PhoneNumbers(ctx, team) {
		if err != nil {
			return "", err
		}
		if n.PhoneNumber == s {
			return n.Id, nil
		}
	}
	return "", NotFoundf("the team has no number %s (see betty numbers list)", s)
}

package cmdutil

import (
	"context"
	"net/http"

	"github.com/spf13/cobra"

	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// AddTeamFlag adds --team to a command that acts on one team.
func AddTeamFlag(cmd *cobra.Command, team *string) {
	ID.Var(cmd.Flags(), team, "team", "The team's `id` (default: the current team, see `betty teams switch`)")
}

// TeamID is the team a command acts on: the --team flag when given, else the profile's
// current team, else, with an API key, the key's own team.
func (f *Factory) TeamID(ctx context.Context, flag string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	creds, err := f.Credentials()
	if err != nil {
		return "", err
	}
	// A key from BETTY_API_KEY may belong to another team than the profile's.
	if !creds.FromEnv {
		_, p, err := f.Profile()
		if err != nil {
			return "", err
		}
		if p.Team != "" {
			return p.Team, nil
		}
	}
	if creds.APIKey != "" {
		c, err := f.Client()
		if err != nil {
			return "", err
		}
		teams, err := ListTeams(ctx, c, 1)
		if err != nil {
			return "", err
		}
		if len(teams) == 1 {
			return teams[0].Id, nil
		}
	}
	return "", FlagErrorf("no team selected: pass --team or run `betty teams switch <id>`")
}

// ListTeams returns up to limit of the caller's teams (every one when limit is 0), oldest
// first. An API key sees its own team only.
func ListTeams(ctx context.Context, c *betty.Client, limit int) ([]client.Organization, error) {
	size := PageSize(limit)
	return Collect(betty.All[client.Organization](ctx, c, func(ctx context.Context, api *client.Client, page int) (*http.Response, error) {
		return api.ListTeams(ctx, &client.ListTeamsParams{Page: &page, SizePerPage: &size})
	}), limit)
}

// FindTeam looks a team up among the caller's: there is no operation that reads one team.
func FindTeam(ctx context.Context, c *betty.Client, id string) (client.Organization, error) {
	teams, err := ListTeams(ctx, c, 0)
	if err != nil {
		return client.Organization{}, err
	}
	for _, org := range teams {
		if org.Id == id {
			return org, nil
		}
	}
	return client.Organization{}, NotFoundf("team %s is not one of your teams", id)
}

// AddOriginFlag adds --origin to a command whose e-mail carries a link to the dashboard.
func AddOriginFlag(cmd *cobra.Command, origin *string) {
	Origin.Var(cmd.Flags(), origin, "origin", "The dashboard `URL` the e-mailed link opens (default: the server's base URL)")
}

// OptionalOrigin is the --origin to send: none when not given, so the server uses its own.
func OptionalOrigin(origin string) *string {
	if origin == "" {
		return nil
	}
	return &origin
}

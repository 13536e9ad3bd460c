package cmdutil

import (
	"context"

	betty "github.com/bettyhq/betty/sdk"
)

// TeamOptions are the inputs every command acting on one team shares: the streams, the
// client, and the team (--team, else the current one).
type TeamOptions struct {
	IO     *IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team string
}

// NewTeamOptions answers the team options of f.
func NewTeamOptions(f *Factory) TeamOptions {
	return TeamOptions{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
}

// Connect answers the client and the team's id.
func (o *TeamOptions) Connect(ctx context.Context) (*betty.Client, string, error) {
	team, err := o.TeamID(ctx, o.Team)
	if err != nil {
		return nil, "", err
	}
	c, err := o.Client()
	return c, team, err
}

// Package apps is `betty apps`: the team's connected apps (HubSpot, Zapier) — list them,
// connect HubSpot through its OAuth page, disconnect one.
package apps

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
	"github.com/bettyhq/betty/sdk/client"
)

// NewCmdApps returns `betty apps` and its verbs.
func NewCmdApps(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "apps <command>",
		Short: "Connected apps: HubSpot and Zapier connections",
		Long: `Manage the current team's connected apps (or the one given with --team): the team's
connections to HubSpot portals and Zapier accounts. A workflow's Contacts node can call a
connected HubSpot portal's contacts, and its lifecycle-stage node writes their stage back.

Connecting HubSpot happens in a browser: "betty apps connect hubspot" prints the page to
open, where a HubSpot user approves Betty. Tokens stay on the server.`,
		Example: `  betty apps list
  betty apps connect hubspot --wait
  betty apps disconnect 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --yes`,
	}
	cmd.AddCommand(NewCmdList(f, nil), NewCmdConnect(f, nil), NewCmdDisconnect(f, nil))
	return cmd
}

// Options are the inputs every apps command shares.
type Options struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team string
}

func options(f *cmdutil.Factory) Options {
	return Options{IO: f.IO, Client: f.Client, TeamID: f.TeamID}
}

func (o *Options) connect(ctx context.Context) (*betty.Client, string, error) {
	team, err := o.TeamID(ctx, o.Team)
	if err != nil {
		return nil, "", err
	}
	c, err := o.Client()
	return c, team, err
}

func printApps(s *cmdutil.IOStreams, o cmdutil.Output, list []client.ConnectedApp) error {
	return o.Print(s, list, func(t *cmdutil.Table) {
		t.Header("ID", "INTEGRATION", "NAME", "ACCOUNT", "STATUS", "UPDATED")
		for _, a := range list {
			t.Row(a.Id, string(a.IntegrationId), a.Name, cmdutil.Str(a.AccountId), string(a.Status), cmdutil.Time(&a.UpdatedAt))
		}
	})
}

// Package zapier is `betty zapier`: what a team's zaps do with Betty (the REST-hook
// subscriptions they made with the team's API key) and what Zapier shows of Betty's Zapier app
// (templates, the connected account's zaps).
package zapier

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
	betty "github.com/bettyhq/betty/sdk"
)

// NewCmdZapier returns `betty zapier` and its verbs.
func NewCmdZapier(f *cmdutil.Factory) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "zapier <command>",
		Short: "Zapier: the team's REST hooks, templates and zaps",
		Long: `See what the team's zaps do with Betty. A zap with a Betty trigger subscribes a REST hook with
the team's API key when it is turned on (and unsubscribes it when it is turned off); Betty then
posts each event to the zap's hook URL. docs/zapier.md describes the Zapier app a team publishes.

betty zapier templates and betty zapier zaps ask Zapier's partner API: the server needs
Zapier's OAuth client (--zapier-client-id), and zaps need the team's Zapier connection
(connected in the dashboard).`,
		Example: `  betty zapier hooks list
  betty zapier templates
  betty zapier zaps --json`,
	}
	hooks := &cobra.Command{
		Use:   "hooks <command>",
		Short: "The team's Zapier REST-hook subscriptions",
		Long:  `List the REST hooks the team's zaps subscribed: which event each receives and where it is posted.`,
		Example: `  betty zapier hooks list
  betty zapier hooks list --team 0192f1a4-7c1e-7b52-9a61-3f0e2d7c9b10 --json`,
	}
	hooks.AddCommand(NewCmdHooksList(f, nil))
	cmd.AddCommand(hooks, NewCmdTemplates(f, nil), NewCmdZaps(f, nil))
	return cmd
}

// Options are the inputs every zapier command shares.
type Options struct {
	IO     *cmdutil.IOStreams
	Client func() (*betty.Client, error)
	TeamID func(ctx context.Context, flag string) (string, error)

	Team   string
	Output cmdutil.Output
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

// newList builds a read command: one shape for hooks list, templates and zaps.
func newList(f *cmdutil.Factory, use, short, long, example string, aliases []string, run func(ctx context.Context, o *Options) error, runF func(*Options) error) *cobra.Command {
	opts := options(f)
	cmd := &cobra.Command{
		Use: use, Short: short, Long: long, Example: example, Aliases: aliases,
		Args: cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(&opts)
			}
			return run(cmd.Context(), &opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

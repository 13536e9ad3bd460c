package apps

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/bettyhq/betty/cli/cmdutil"
)

// ListOptions are the inputs of `betty apps list`.
type ListOptions struct {
	Options
	Output cmdutil.Output
}

// NewCmdList returns `betty apps list`; runF replaces the run in tests.
func NewCmdList(f *cmdutil.Factory, runF func(*ListOptions) error) *cobra.Command {
	opts := &ListOptions{Options: options(f)}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the team's connected apps",
		Long: `List the team's connected apps, newest first, connected and disconnected: the
integration, the account (a HubSpot portal's domain and id), and the status.`,
		Example: `  betty apps list
  betty apps list --json`,
		Aliases: []string{"ls"},
		Args:    cmdutil.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(opts)
			}
			return runList(cmd.Context(), opts)
		},
	}
	cmdutil.AddTeamFlag(cmd, &opts.Team)
	cmdutil.AddOutputFlags(cmd, &opts.Output)
	return cmd
}

func runList(ctx context.Context, opts *ListOptions) error {
	c, team, err := opts.connect(ctx)
	if err != nil {
		return err
	}
	list, err := c.ConnectedApps(ctx, team)
	if err != nil {
		return err
	}
	return printApps(opts.IO, opts.Output, list)
}
